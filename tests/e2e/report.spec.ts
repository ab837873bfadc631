/**
 * Scheduled reports through the built x64 binary in Chromium: on /visualization/report a report is
 * made in its drawer (a device picked by searching the server, a key it reported, an aggregation, a
 * weekly schedule at two hours), run by hand, and its run listed; the run's .xlsx and CSV come
 * down through the page's own download buttons (a real GET of the run's file with the user's
 * token, saved by the browser): a zip ("PK") and the CSV holding the reported value. Screens in
 * zh_CN/en_US × light/dark (test-results/screenshots/report).
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Download } from 'playwright-core';
import { consolePaths } from '../../server/contract/console-paths.ts';
import type { Ui } from '../helpers/browser.ts';
import { reportTelemetry, seedDevice } from '../helpers/e2e-devices.ts';
import { E2E_ADMIN, startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { E2E_POLL, E2E_TIMEOUT_MS } from '../helpers/e2e-wait.ts';

let ui: Ui;
let gateway: E2eGateway;
let deviceId: string;
let deviceName: string;
let reportId: string;
let runId: string;

/** Clicks a download button of the runs list and reads what the browser saved, with the GET it made. */
async function download(testId: string, format: 'xlsx' | 'csv'): Promise<{ bytes: Buffer; status: number; name: string }> {
  const [file, response] = await Promise.all([
    ui.page.waitForEvent('download', { timeout: E2E_TIMEOUT_MS }) as Promise<Download>,
    ui.page.waitForResponse((r) => r.url().includes(`/api/yt/report/run/${runId}/file`) && r.url().includes(`format=${format}`), { timeout: E2E_TIMEOUT_MS }),
    ui.clickTestId(testId),
  ]);
  return { bytes: await readFile((await file.path())!), status: response.status(), name: file.suggestedFilename() };
}

useE2eSpec('report', startE2eGateway, async (ctx) => {
  ({ ui, gateway } = ctx);
  await gateway.provision();
  const { device } = await seedDevice(gateway, { product: 'METER', device: 'meter-01' });
  deviceId = device.id;
  deviceName = device.name;
  await reportTelemetry(gateway, deviceId, { energy: 41.5 });
  await reportTelemetry(gateway, deviceId, { energy: 43.5 });
  await ui.goto('/login');
  await signIn(ui, E2E_ADMIN);
  await ui.expectVisible('main-layout');
});

describe('reports', () => {
  it('makes a report of a device’s key with an aggregation and a weekly schedule in the drawer', async () => {
    await ui.goto(consolePaths.visualizationReport);
    await ui.expectVisible('report-page');
    await ui.clickTestId('report-create');
    await ui.fill('report-form-name', 'Meter weekly');
    await ui.clickTestId('report-form-series-0-device');
    await ui.page.keyboard.type(deviceName.slice(-4));
    await ui.clickTestId(`report-form-series-0-device-option-${deviceId}`);
    await ui.fill('report-form-series-0-key', 'energy');
    await ui.clickTestId('report-form-aggregation');
    await ui.clickTestId('report-form-aggregation-MAX');
    await ui.clickTestId('report-form-frequency');
    await ui.clickTestId('report-form-frequency-WEEKLY');
    await ui.clickTestId('report-form-weekdays');
    await ui.page.getByRole('option', { name: '周一' }).click();
    // A multiple select stays open after a choice: closed as a user does, so it covers nothing below.
    await ui.page.keyboard.press('Escape');
    await ui.clickTestId('report-form-hours');
    await ui.page.getByRole('option', { name: '08:00' }).click();
    await ui.page.keyboard.press('Escape');
    await ui.clickTestId('report-form-submit');
    await ui.expectHidden('report-form-name');
    await ui.expectText('report-table', 'Meter weekly');
    const edit = ui.page.locator('button[data-testid^="report-edit-"]').first();
    reportId = (await edit.getAttribute('data-testid', { timeout: E2E_TIMEOUT_MS }))!.slice('report-edit-'.length);
    await ui.screenshotMatrix('report-list', () => ui.expectText('report-table', 'Meter weekly'));
    // The saved report as its drawer shows it again (a reload closes the drawer: each screen reopens it).
    await ui.screenshotMatrix('report-form', async () => {
      await ui.clickTestId(`report-edit-${reportId}`);
      await expect.poll(() => ui.testId('report-form-name').inputValue(), E2E_POLL).toBe('Meter weekly');
    });
    await ui.closeDrawer('report-form');
  });

  it('runs it by hand, lists the run and downloads its .xlsx and CSV through the page', async () => {
    await ui.clickTestId(`report-run-${reportId}`);
    await ui.expectVisible('report-runs-modal');
    const xlsxButton = ui.page.locator('button[data-testid^="report-run-xlsx-"]').first();
    await xlsxButton.waitFor({ timeout: E2E_TIMEOUT_MS });
    runId = (await xlsxButton.getAttribute('data-testid'))!.slice('report-run-xlsx-'.length);

    const xlsx = await download(`report-run-xlsx-${runId}`, 'xlsx');
    expect(xlsx.status).toBe(200);
    expect(xlsx.name).toMatch(/^Meter weekly-\d{12}\.xlsx$/);
    // An .xlsx is a zip: it starts with the local file header "PK".
    expect(xlsx.bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    const csv = await download(`report-run-csv-${runId}`, 'csv');
    expect(csv.status).toBe(200);
    expect(csv.name).toMatch(/\.csv$/);
    // The larger of the two readings: the run used the report's MAX aggregation.
    expect(csv.bytes.toString('utf8')).toContain('43.5');
    await ui.screenshotMatrix('report-runs', async () => {
      await ui.clickTestId(`report-runs-${reportId}`);
      await ui.expectVisible(`report-run-xlsx-${runId}`);
    });
  });
});
