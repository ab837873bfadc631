/**
 * What an operator tripped over walking every screen (issue 32), through the built x64 binary in
 * Chromium: the device page follows the device live (待激活 → 在线 → 离线 without a reload), five
 * language switches on a device page leave it whole and silent, a dirty page form asks before the
 * menu or the browser's back button leaves it, the default columns of the alarm list and the
 * command records fit at 1366 px (by bounding boxes), no enumeration shows untranslated (alarm
 * condition, edge type, audit log), and a customer's workbench holds only their organizations'
 * figures with an empty device list that offers no button they lack. Screens in
 * test-results/screenshots/console-walk.
 *
 * Waits use the shared E2E_POLL (tests/helpers/e2e-wait.ts): the machine running this may be loaded.
 */
import { connectAsync, type MqttClient } from 'mqtt';
import { describe, expect, it } from 'vitest';
import type { DeviceCredentials } from '../../server/contract/credentials.ts';
import type { Device } from '../../server/contract/device.ts';
import type { Product } from '../../server/contract/product.ts';
import type { Ui } from '../helpers/browser.ts';
import { adminPost, overheatSceneBody, seedDevice, temperatureProperty } from '../helpers/e2e-devices.ts';
import { expectNoRawEnums } from '../helpers/enum-text.ts';
import { E2E_ADMIN, startE2eGateway } from '../helpers/e2e-gateway.ts';
import { E2E_POLL } from '../helpers/e2e-wait.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';

const CUSTOMER_PASSWORD = 'Walk#Pass2024';

let device: Device;
let deviceToken = '';
const warnings: string[] = [];

const ctx = useE2eSpec('console-walk', startE2eGateway, async ({ gateway, ui }) => {
  await gateway.provision();
  let product: Product;
  ({ device, product } = await seedDevice(gateway, { product: 'E2E走查产品', device: 'E2E-Walk-01' }));
  const post = await adminPost(gateway);
  await post('/api/yt/things_model', temperatureProperty(product.id));
  await post(`/api/yt/things_model/${product.id}/publish`, {});
  // Above 30 °C the device raises an alarm: its detail names the comparison (item 7).
  await post('/api/yt/scene_linkage', overheatSceneBody(product.id, { name: 'E2E走查过热', over: 30, severity: 'MAJOR', alarmType: '走查过热' }));
  const { token } = await gateway.login();
  const res = await fetch(`${gateway.url}/api/yt/device/${device.id}/credentials`, { headers: { authorization: `Bearer ${token}` } });
  deviceToken = ((await res.json()) as DeviceCredentials).credentialsId;
  ui.page.on('console', (msg) => {
    if (msg.type() === 'warning') warnings.push(msg.text());
  });
  await ui.goto('/login');
  await signIn(ui, E2E_ADMIN);
  await ui.expectVisible('main-layout');
});

async function mqttUrl(): Promise<string> {
  await expect.poll(() => /device MQTT on port (\d+)/.test(ctx.gateway.output()), E2E_POLL).toBe(true);
  return `mqtt://127.0.0.1:${/device MQTT on port (\d+)/.exec(ctx.gateway.output())![1]}`;
}

/** The device's state as the header and the basic-information tab show it, both in `lang`. */
async function expectState(ui: Ui, lang: 'zh_CN' | 'en_US', state: Device['deviceState']): Promise<void> {
  const label = text(lang, `device:state.${state}`);
  await ui.expectText('device-detail-state', label);
  await ui.expectText('device-info-state', label);
}

describe('the console as an operator walks it', () => {
  it('follows the device on its page: 待激活, then 在线 when it reports, then 离线, without a reload', async () => {
    const { ui } = ctx;
    await ui.goto(`/device-manage/device/${device.id}`);
    await expectState(ui, 'zh_CN', 'INACTIVE');
    await ui.expectText('device-info-last-online', '—');

    const mqtt: MqttClient = await connectAsync(await mqttUrl(), { username: deviceToken, clientId: 'e2e-walk' });
    await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 21.5 }), { qos: 1 });
    await expectState(ui, 'zh_CN', 'ONLINE');
    await expect.poll(async () => ui.testId('device-info-last-online').innerText(), E2E_POLL).not.toBe('—');
    await ui.screenshot('device-online');

    await mqtt.endAsync();
    await expectState(ui, 'zh_CN', 'OFFLINE');
    await expect.poll(async () => ui.testId('device-info-last-offline').innerText(), E2E_POLL).not.toBe('—');
    await ui.screenshotMatrix('device-offline', () => ui.expectVisible('device-info-state'));
  });

  it('keeps the device page whole and silent through five language switches', async () => {
    const { ui } = ctx;
    await ui.goto(`/device-manage/device/${device.id}`);
    await expectState(ui, 'zh_CN', 'OFFLINE');
    warnings.length = 0;
    let lang: 'zh_CN' | 'en_US' = 'zh_CN';
    for (let i = 0; i < 5; i += 1) {
      await ui.clickTestId('header-language');
      lang = lang === 'zh_CN' ? 'en_US' : 'zh_CN';
      await expectState(ui, lang, 'OFFLINE');
      expect(await ui.testId('device-missing').count()).toBe(0);
      expect(await ui.page.locator('.arco-message').filter({ hasText: /cancelled/i }).count()).toBe(0);
    }
    // Anything still in flight has settled: the page stayed, and nobody said "cancelled".
    await ui.expectVisible('device-detail');
    expect(await ui.testId('device-missing').count()).toBe(0);
    expect(warnings.filter((w) => /cancelled/i.test(w))).toEqual([]);
    await ui.screenshot('device-after-language-switches');
    if (lang !== 'zh_CN') await ui.clickTestId('header-language');
  });

  it('asks before the menu or the back button leaves an unsaved platform address', async () => {
    const { ui } = ctx;
    await ui.goto('/device-manage/device');
    await ui.expectVisible('device-resource');
    // In the console, as an operator moves: the browser's back button then stays in the console.
    await ui.page.locator('.arco-menu-inline-header', { hasText: text('zh_CN', 'menu:system') }).first().click();
    await ui.page.locator('.arco-menu-item', { hasText: text('zh_CN', 'menu:systemConfiguration') }).first().click();
    await ui.expectPath('/system/system-configuration');
    await ui.clickTestId('system-tab-cloud');
    await ui.expectVisible('system-cloud-address');
    await ui.page.waitForFunction(() => !document.querySelector('[data-testid="system-cloud-address"]')?.closest('.arco-form-item')?.querySelector('input[disabled]'));
    await ui.fill('system-cloud-address', 'cloud.example.com');

    // The menu: staying keeps the page and the edit.
    await ui.page.locator('.arco-menu-item', { hasText: text('zh_CN', 'menu:auditLog') }).first().click();
    await ui.expectVisible('leave-confirm-cancel');
    await ui.screenshot('leave-confirm');
    await ui.clickTestId('leave-confirm-cancel');
    await ui.expectPath('/system/system-configuration');
    expect(await ui.testId('system-cloud-address').inputValue()).toBe('cloud.example.com');

    // The browser's back button: asks too; leaving goes where back leads.
    await ui.expectHidden('leave-confirm-cancel');
    await ui.page.goBack({ waitUntil: 'commit' });
    await ui.expectVisible('leave-confirm-cancel');
    await ui.expectPath('/system/system-configuration');
    await ui.clickTestId('leave-confirm-cancel');
    await ui.expectHidden('leave-confirm-cancel');
    expect(await ui.testId('system-cloud-address').inputValue()).toBe('cloud.example.com');
    await ui.page.goBack({ waitUntil: 'commit' });
    await ui.clickTestId('leave-confirm-ok');
    await ui.expectPath('/device-manage/device');
  });

  it('fits the default columns of the alarm list at 1366 px', async () => {
    const { ui } = ctx;
    // A hot reading raises the alarm the list shows (the scene fires above 30 °C).
    const mqtt = await connectAsync(await mqttUrl(), { username: deviceToken, clientId: 'e2e-walk-hot' });
    await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 35 }), { qos: 1 });
    await mqtt.endAsync();
    await ui.page.setViewportSize({ width: 1366, height: 768 });
    await ui.goto('/maintenance/alarm-record');
    await ui.page.locator('[data-testid^="alarm-status-"]').first().waitFor({ state: 'visible' });
    await expectColumnsFit(ui, 'alarm');
    await inEnglish(ui, () => expectColumnsFit(ui, 'alarm'));
    await ui.screenshotMatrix('alarm-list-1366', () => ui.page.locator('[data-testid^="alarm-status-"]').first().waitFor({ state: 'visible' }));
  });

  it('fits the default columns of the command records at 1366 px', async () => {
    const { ui } = ctx;
    await ui.goto(`/device-manage/device/${device.id}/command`);
    await expectColumnsFit(ui, 'cmd');
    await inEnglish(ui, () => expectColumnsFit(ui, 'cmd'));
    await ui.screenshotMatrix('command-records-1366', () => ui.expectVisible('cmd-resource'));
    await ui.page.setViewportSize({ width: 1440, height: 900 });
  });

  it('shows no enumeration untranslated: alarm condition, edge type, audit log, device page', async () => {
    const { ui } = ctx;
    await ui.goto('/maintenance/alarm-record');
    await ui.page.locator('[data-testid^="alarm-detail-"]').first().click();
    await ui.expectText('alarm-detail-condition', `${text('zh_CN', 'scene:operation.GREATER')} 30`);
    await expectNoRawEnums(ui, 'the alarm detail');
    await ui.screenshot('alarm-detail-condition');
    for (const [path, ready] of [
      ['/system/marginal-state', 'edge-type'],
      ['/system/audit-log', 'audit-log-page'],
      [`/device-manage/device/${device.id}`, 'device-info-state'],
      ['/device-manage/device', 'device-resource'],
    ] as const) {
      await ui.goto(path);
      await ui.expectVisible(ready);
      await expectNoRawEnums(ui, path);
    }
    await ui.goto('/system/marginal-state');
    await ui.expectText('edge-type', text('zh_CN', 'product:deviceType.GATEWAY'));
    await ui.screenshotMatrix('edge-state', () => ui.expectVisible('edge-type'));
  });

  it("gives a customer a workbench of their organizations only, and an empty list that offers no button they lack", async () => {
    const { ui, gateway } = ctx;
    const post = await adminPost(gateway);
    const org = await post<{ id: string }>('/api/yt/organization', { name: 'E2E走查客户' });
    const customer = await post<{ username: string }>('/api/yt/user', {
      username: 'walkcustomer',
      realName: '走查客户',
      role: 'CUSTOMER_USER',
      organizationIds: [org.id],
      enabled: true,
      password: CUSTOMER_PASSWORD,
    });
    await ui.page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await ui.goto('/login');
    await signIn(ui, { username: customer.username, password: CUSTOMER_PASSWORD });
    await ui.expectVisible('workbench');
    await ui.expectText('wb-devices-value', '0');
    await ui.expectVisible('wb-alarms');
    expect(await ui.testId('wb-messages').count()).toBe(0);
    expect(await ui.testId('wb-load').count()).toBe(0);
    expect(await ui.testId('wb-volume').count()).toBe(0);
    await ui.screenshotMatrix('customer-workbench', () => ui.expectVisible('wb-devices'));
    await ui.goto('/device-manage/device');
    await ui.expectText('device-empty', text('zh_CN', 'device:emptyReadOnly'));
    expect(await ui.testId('device-create').count()).toBe(0);
    await ui.screenshot('customer-empty-devices');
  });
});

/** Runs `check` with the console in English (longer labels, a wider menu), then back in Chinese. */
async function inEnglish(ui: Ui, check: () => Promise<void>): Promise<void> {
  for (const language of ['en_US', 'zh_CN'] as const) {
    await ui.storeSettings({ language });
    await ui.reload();
    await ui.page.waitForFunction((lang) => document.documentElement.lang === lang, language === 'en_US' ? 'en' : 'zh-CN');
    if (language === 'en_US') await check();
  }
}

/**
 * Every header cell of the table lies inside the table's visible width, and none lies under a
 * pinned column: nothing needs a sideways scroll to be seen.
 */
async function expectColumnsFit(ui: Ui, testId: string): Promise<void> {
  const table = await ui.expectVisible(`${testId}-resource`);
  await table.locator('thead th').first().waitFor({ state: 'visible' });
  const boxes = await table.evaluate((root) => {
    const body = root.querySelector('.arco-table-content-inner, .arco-table-container') ?? root;
    const view = body.getBoundingClientRect();
    return [...root.querySelectorAll('thead th')].map((th) => {
      const r = th.getBoundingClientRect();
      return { text: (th.textContent ?? '').trim(), left: r.left, right: r.right, pinned: /arco-table-col-fixed-right/.test(th.className), viewRight: view.right };
    });
  });
  const pinned = boxes.filter((b) => b.pinned);
  const pinnedLeft = Math.min(...pinned.map((b) => b.left), Infinity);
  const hidden = boxes.filter((b) => !b.pinned && (b.right > b.viewRight + 1 || b.right > pinnedLeft + 1)).map((b) => b.text);
  expect(hidden, `columns of ${testId} hidden at 1366 px`).toEqual([]);
}
