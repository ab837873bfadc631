/**
 * List tables on desktop widths, through the built x64 binary: at 1440 px the device list's sticky
 * actions column leaves the public switches uncovered and its default columns fit without a
 * horizontal scroll bar, and the column chooser (web/components/ResourceTable.tsx) hides a column,
 * keeps that choice across a reload, and shows the column again. Screens in zh_CN/en_US ×
 * light/dark go to test-results/screenshots/tables.
 */
import { describe, expect, it } from 'vitest';
import type { Language } from '../../server/contract/languages.ts';
import type { Ui } from '../helpers/browser.ts';
import { seedDevice } from '../helpers/e2e-devices.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { E2E_ADMIN, startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { text } from '../helpers/locale-text.ts';
import { E2E_POLL } from '../helpers/e2e-wait.ts';

const LIST = '/device-manage/device';
const DEVICE = 'E2E-Table-Sensor-Long-Name-01';

let gateway: E2eGateway;
let ui: Ui;

useE2eSpec('tables', startE2eGateway, async (ctx) => {
  ({ gateway, ui } = ctx);
  await gateway.provision();
  await seedDevice(gateway, { product: '表格布局产品', device: DEVICE, alias: '一号车间温湿度传感器' });
  await ui.goto('/login');
  await signIn(ui, E2E_ADMIN);
  await ui.expectVisible('main-layout');
});

/** The horizontal extent of an element on screen. */
async function span(locator: ReturnType<Ui['testId']>): Promise<{ left: number; right: number }> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('the element is not on screen');
  return { left: box.x, right: box.x + box.width };
}

async function openList(width: number, language: Language = 'zh_CN'): Promise<void> {
  await ui.page.setViewportSize({ width, height: 900 });
  await ui.storeSettings({ language });
  await ui.goto(LIST);
  await ui.expectVisible(`device-open-${DEVICE}`);
}

describe('list tables at desktop widths', () => {
  // English labels and its wider menu leave the least room, at the narrowest width.
  const cases: [number, Language][] = [[1366, 'en_US'], [1366, 'zh_CN'], [1440, 'zh_CN'], [1920, 'zh_CN']];
  for (const [width, language] of cases) {
    it(`fits the device list's default columns at ${width} px in ${language}, the sticky actions column covering nothing`, async () => {
      await openList(width, language);
      const row = ui.page.locator('tr', { has: ui.testId(`device-open-${DEVICE}`) });
      const actions = await span(row.locator('td.arco-table-col-fixed-right'));
      const publicSwitch = await span(ui.testId(`device-public-${DEVICE}`));
      expect(publicSwitch.right).toBeLessThanOrEqual(actions.left);
      // Every default column is on screen: the table's body does not scroll sideways.
      const overflow = await ui.page.evaluate(() => {
        const body = document.querySelector('[data-testid="device-table"] .arco-table-content-inner, [data-testid="device-table"] .arco-table-body');
        return body ? body.scrollWidth - body.clientWidth : -1;
      });
      expect(overflow).toBe(0);
      for (const key of ['lastOnlineTime', 'createdTime']) {
        const header = await span(ui.testId(`device-sort-${key}`));
        expect(header.right).toBeLessThanOrEqual(actions.left);
      }
    });
  }

  it('hides a column from the column chooser, remembers it after a reload and shows it again', async () => {
    await openList(1440);
    await ui.screenshotMatrix('device-list-1440', () => ui.expectVisible(`device-open-${DEVICE}`));
    await ui.clickTestId('device-columns');
    await ui.expectVisible('device-columns-panel');
    await ui.screenshot('column-chooser');
    const organization = ui.testId('device-column-organizationName').locator('input');
    await expect.poll(() => organization.isChecked(), E2E_POLL).toBe(true);
    // Keyboard: the checkbox takes focus and Space toggles it.
    await organization.focus();
    await ui.page.keyboard.press('Space');
    await expect.poll(() => organization.isChecked(), E2E_POLL).toBe(false);
    const organizationHeader = ui.page.locator('[data-testid="device-table"] th', { hasText: text('zh_CN', 'device:fields.organization') });
    await organizationHeader.waitFor({ state: 'detached' });
    await ui.page.keyboard.press('Escape');
    await ui.expectHidden('device-columns-panel');

    await ui.reload();
    await ui.expectVisible(`device-open-${DEVICE}`);
    expect(await organizationHeader.count()).toBe(0);
    await ui.expectVisible('device-sort-createdTime');

    await ui.clickTestId('device-columns');
    await ui.clickTestId('device-column-organizationName');
    await organizationHeader.waitFor({ state: 'visible' });
    await ui.reload();
    await ui.expectVisible(`device-open-${DEVICE}`);
    await organizationHeader.waitFor({ state: 'visible' });
  });
});
