/**
 * The device picker on a full gateway, through the built x64 binary in Chromium: 11,000 devices
 * are generated over HTTP (11 batch generations of 1,000, as a factory script would), then the
 * alarm record page's device filter finds device number 10,500 by part of its name, chooses it from
 * the keyboard, and the page's query carries its id. After a reload the chosen device's name shows
 * though it is far beyond the first page. Screens in zh_CN/en_US × light/dark
 * (test-results/screenshots/device-select).
 */
import { describe, expect, it } from 'vitest';
import { BATCH_MAX, deviceImportRoutes, type BatchItem, type BatchResult } from '../../server/contract/device-import.ts';
import { consolePaths } from '../../server/contract/console-paths.ts';
import { productRoutes, type Product } from '../../server/contract/product.ts';
import { REMOTE_PAGE_SIZE } from '../../web/components/remote-search.ts';
import type { Ui } from '../helpers/browser.ts';
import { adminPost } from '../helpers/e2e-devices.ts';
import { E2E_ADMIN, startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';
import { E2E_POLL } from '../helpers/e2e-wait.ts';

const DEVICES = 11_000;
const WANTED = 10_500;
const SELECT = 'alarm-filter-device';

let ui: Ui;
let gateway: E2eGateway;
let wanted: BatchItem;

/** Every device of the gateway, generated in batches; returns them in the order they were made. */
async function generateDevices(): Promise<BatchItem[]> {
  const post = await adminPost(gateway);
  const product = await post<Product>(productRoutes.create.url, { name: 'PICK', deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT' });
  const made: BatchItem[] = [];
  for (let batch = 1; made.length < DEVICES; batch += 1) {
    const body = { deviceProfileId: product.id, count: Math.min(BATCH_MAX, DEVICES - made.length), aliasPrefix: `B${batch}-` };
    made.push(...(await post<BatchResult>(deviceImportRoutes.batch.url, body)).items);
  }
  return made;
}

/** Opens the device filter and types `part`; waits for the server's answer to offer `id`. */
async function search(part: string, id: string): Promise<void> {
  await ui.testId(SELECT).click();
  await ui.page.keyboard.type(part);
  await ui.expectVisible(`${SELECT}-option-${id}`);
}

useE2eSpec('device-select', startE2eGateway, async (ctx) => {
  ({ ui, gateway } = ctx);
  await gateway.provision();
  const made = await generateDevices();
  expect(made).toHaveLength(DEVICES);
  wanted = made[WANTED - 1]!;
  await ui.goto('/login');
  await signIn(ui, E2E_ADMIN);
  await ui.expectVisible('main-layout');
});

describe('device picker over 11,000 devices', () => {
  it('offers one page at a time, with the server\'s count', async () => {
    await ui.goto(consolePaths.alarmRecord);
    await ui.clickTestId(SELECT);
    await ui.expectText(`${SELECT}-more`, text('zh_CN', 'table:remoteMore', { shown: REMOTE_PAGE_SIZE, total: DEVICES }));
    await expect.poll(() => ui.page.locator(`[data-testid^="${SELECT}-option-"]`).count(), E2E_POLL).toBeLessThanOrEqual(REMOTE_PAGE_SIZE);
    await ui.screenshot('device-select-first-page');
    // The "more" row appends the next page.
    await ui.clickTestId(`${SELECT}-more`);
    await ui.expectText(`${SELECT}-more`, text('zh_CN', 'table:remoteMore', { shown: 2 * REMOTE_PAGE_SIZE, total: DEVICES }));
    await ui.page.keyboard.press('Escape');
  });

  it('finds device number 10,500 by part of its name, chosen from the keyboard, and filters by its id', async () => {
    // The batch names devices `PICK_<8 random characters>`: the random part is this device's own.
    const part = wanted.name.slice(-6);
    await search(part, wanted.id);
    await ui.expectText(`${SELECT}-option-${wanted.id}`, wanted.alias!);
    await ui.screenshotMatrix('device-select-search', () => search(part, wanted.id));
    await ui.page.keyboard.press('Enter');
    await ui.expectHidden(`${SELECT}-option-${wanted.id}`);
    await ui.expectText(SELECT, wanted.name);
    await ui.clickTestId('alarm-search');
    await expect.poll(() => ui.search().get('deviceId'), E2E_POLL).toBe(wanted.id);
  });

  it('shows the chosen device by name after a reload, though it is far beyond the first page', async () => {
    await ui.reload();
    await ui.expectText(SELECT, wanted.name);
    await ui.screenshot('device-select-chosen');
  });
});
