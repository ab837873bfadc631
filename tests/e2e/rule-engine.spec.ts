/**
 * The rule engine in the browser, through the built x64 binary: a product with a published DOUBLE
 * temperature property (−40..125 °C) and one device are provisioned over HTTP (as a factory script
 * would); an administrator builds a scene in the editor (device trigger: temperature > 80 on every
 * device of the product, action MSG_NOTIFY CRITICAL), the device publishes a reading over real MQTT
 * that crosses it, the alarm popup appears and opens the record, the record list shows the alarm,
 * it is handled and cleared, the header bell lists its notification, and the workbench's alarm card
 * counts a new crossing live. Screens in zh_CN/en_US ×
 * light/dark (test-results/screenshots/rule-engine).
 */
import { connectAsync } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import type { AlarmPage } from '../../server/contract/alarm.ts';
import type { DeviceCredentials } from '../../server/contract/credentials.ts';
import type { Device } from '../../server/contract/device.ts';
import type { Product } from '../../server/contract/product.ts';
import type { Scene, SceneCreateBody, ScenePage } from '../../server/contract/scene-linkage.ts';
import type { Ui } from '../helpers/browser.ts';
import { temperatureProperty } from '../helpers/e2e-devices.ts';
import { E2E_ADMIN, startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';
import { E2E_POLL } from '../helpers/e2e-wait.ts';

const PRODUCT = 'E2E锅炉';
const DEVICE = 'E2E-Boiler-01';
const SCENE = '锅炉高温';
const ALARM_TYPE = '高温告警';

let gateway: E2eGateway;
let ui: Ui;
let token: string;
let product: Product;
let device: Device;
let deviceToken: string;
const closers: (() => Promise<unknown>)[] = [];

async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${gateway.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const raw = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${raw}`);
  return (raw ? JSON.parse(raw) : undefined) as T;
}

/** The broker port the binary printed when it started listening (it runs with --mqtt-port 0). */
async function mqttUrl(): Promise<string> {
  await expect.poll(() => /device MQTT on port (\d+)/.test(gateway.output()), E2E_POLL).toBe(true);
  return `mqtt://127.0.0.1:${/device MQTT on port (\d+)/.exec(gateway.output())![1]}`;
}

/** A scene run by hand that raises a MINOR alarm of `alarmType`, created over HTTP. */
function handActScene(name: string, alarmType: string, extra: Partial<SceneCreateBody> = {}): Promise<{ id: string }> {
  const body: SceneCreateBody = {
    name,
    enabled: true,
    triggers: [{ type: 'HAND_ACT' }],
    conditions: [],
    actions: [{ type: 'MSG_NOTIFY', severity: 'MINOR', alarmType }],
    clearRules: [null],
    ...extra,
  };
  return call<{ id: string }>('POST', '/api/yt/scene_linkage', body);
}

/** Picks the option of an Arco select shown with that text. */
async function choose(select: string, option: string): Promise<void> {
  await ui.clickTestId(select);
  await ui.page.getByRole('option', { name: option }).first().click();
}

useE2eSpec('rule-engine', startE2eGateway, async (ctx) => {
  ({ gateway, ui } = ctx);
  await gateway.provision();
  ({ token } = await gateway.login());
  product = await call<Product>('POST', '/api/yt/device_profile', { name: PRODUCT, deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT' });
  await call('POST', '/api/yt/things_model', temperatureProperty(product.id));
  await call('POST', `/api/yt/things_model/${product.id}/publish`);
  device = await call<Device>('POST', '/api/yt/device', { name: DEVICE, alias: '一号锅炉', deviceProfileId: product.id, deviceType: 'DIRECT_CONNECTION' });
  deviceToken = (await call<DeviceCredentials>('GET', `/api/yt/device/${device.id}/credentials`)).credentialsId;
  await ui.goto('/login');
  // The popup polls every 5 s here (60 s by default) and stays 30 s, so a step sees it promptly and long enough.
  await ui.storeSettings({ alarmPollIntervalMs: 5_000, alarmPopupDurationS: 30 });
  await ui.reload();
  await signIn(ui, E2E_ADMIN);
  await ui.expectVisible('main-layout');
});

afterAll(async () => {
  for (const close of closers) await close();
});

describe('scene linkage, alarms and notifications in the console', () => {
  it('builds a threshold scene in the editor', async () => {
    await ui.goto('/rule-engine/scene-linkage');
    await ui.expectText('scene-empty', text('zh_CN', 'scene:empty'));
    await ui.clickTestId('scene-create');
    await ui.fill('scene-form-name', SCENE);
    await choose('scene-trigger-0-product', PRODUCT);
    await choose('scene-trigger-0-key', '温度 (temperature)');
    await ui.expectText('scene-trigger-0-value-type', text('zh_CN', 'scene:valueType.NUMERIC'));
    // Nothing is sent while the value and the alarm type are missing: both say so on their field.
    await ui.clickTestId('scene-drawer-submit');
    await ui.expectFieldError('scene-action-0-alarm-type', text('zh_CN', 'scene:rule.required'));
    await ui.expectFieldError('scene-trigger-0-value', text('zh_CN', 'scene:rule.required'));
    // The value input keeps to the model's range (−40..125 °C) and shows it with the unit.
    await ui.expectPageText(text('zh_CN', 'scene:hint.range', { min: -40, max: 125, unit: '°C' }));
    await ui.fill('scene-trigger-0-value', '80');
    await ui.fill('scene-action-0-alarm-type', ALARM_TYPE);
    await ui.screenshot('editor-filled');
    await ui.clickTestId('scene-drawer-submit');
    await ui.expectHidden('scene-drawer-submit');

    const scenes = await call<ScenePage>('GET', '/api/yt/scene_linkage');
    expect(scenes.items).toHaveLength(1);
    const scene = scenes.items[0]!;
    expect(scene).toMatchObject({
      name: SCENE,
      enabled: true,
      triggers: [{ type: 'DEVICE_TRIGGER', deviceProfileId: product.id, deviceIds: [], key: 'temperature', operation: 'GREATER', valueType: 'NUMERIC', value: 80, conditionType: 'SIMPLE' }],
      actions: [{ type: 'MSG_NOTIFY', severity: 'CRITICAL', alarmType: ALARM_TYPE }],
      clearRules: [null],
    });
    await ui.expectText(`scene-summary-${scene.id}`, 'temperature > 80');
    await ui.screenshotMatrix('scene-list', () => ui.expectVisible(`scene-summary-${scene.id}`));
    await ui.screenshotMatrix('scene-editor', async () => {
      await ui.clickTestId(`scene-edit-${scene.id}`);
      await ui.expectVisible('scene-trigger-0-key');
      await ui.expectText('scene-trigger-0-key', 'temperature');
    });
    // Customers run hand-run scenes only: a threshold scene has no switch to offer it to them.
    expect(await ui.testId('scene-form-for-customers').count()).toBe(0);
    // The lower half of the editor: actions and the clear rules.
    await ui.screenshotMatrix('scene-editor-actions', async () => {
      await ui.clickTestId(`scene-edit-${scene.id}`);
      await ui.page.getByTestId('scene-clear-0-enabled').scrollIntoViewIfNeeded();
      await ui.expectVisible('scene-clear-0-enabled');
    });
    await ui.clickTestId('scene-drawer-cancel');
    await ui.expectHidden('scene-drawer-submit');
  });

  it('raises a CRITICAL alarm when the device crosses the threshold, and the popup shows it', async () => {
    const mqtt = await connectAsync(await mqttUrl(), { username: deviceToken, clientId: 'e2e-boiler' });
    closers.push(() => mqtt.endAsync());
    await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 70 }), { qos: 1 });
    await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 90.5 }), { qos: 1 });
    await expect.poll(async () => (await call<AlarmPage>('GET', '/api/yt/alarm?status=ACTIVE_UNACK')).total, E2E_POLL).toBe(1);

    await ui.expectVisible('alarm-popup');
    await ui.expectPageText(text('zh_CN', 'alarm:popup.title', { severity: text('zh_CN', 'alarm:severity.CRITICAL'), type: ALARM_TYPE }));
    await ui.screenshotMatrix('alarm-popup', () => ui.expectVisible('alarm-popup'));
    await ui.clickTestId('alarm-popup');
    await ui.expectPath('/maintenance/alarm-record');
    await ui.expectVisible('alarm-detail');
    await ui.expectText('alarm-detail-value', '90.5');
    await ui.expectText('alarm-detail-status', text('zh_CN', 'alarm:status.ACTIVE_UNACK'));
    await ui.closeDrawer('alarm-detail');
  });

  it('lists the alarm in the record, then handles and clears it with confirmation', async () => {
    const [alarm] = (await call<AlarmPage>('GET', '/api/yt/alarm')).items;
    await ui.goto('/maintenance/alarm-record');
    await ui.expectText(`alarm-status-${alarm!.id}`, text('zh_CN', 'alarm:status.ACTIVE_UNACK'));
    await ui.screenshotMatrix('alarm-record', () => ui.expectVisible(`alarm-status-${alarm!.id}`));

    await ui.clickTestId(`alarm-ack-${alarm!.id}`);
    await ui.clickTestId(`alarm-ack-${alarm!.id}-confirm`);
    await ui.expectText(`alarm-status-${alarm!.id}`, text('zh_CN', 'alarm:status.ACTIVE_ACK'));
    await ui.clickTestId(`alarm-clear-${alarm!.id}`);
    await ui.clickTestId(`alarm-clear-${alarm!.id}-confirm`);
    await ui.expectText(`alarm-status-${alarm!.id}`, text('zh_CN', 'alarm:status.CLEARED_ACK'));
    const after = await call<AlarmPage>('GET', '/api/yt/alarm');
    expect(after.items[0]).toMatchObject({ id: alarm!.id, status: 'CLEARED_ACK', severity: 'CRITICAL', type: ALARM_TYPE, deviceId: device.id });
  });

  it('shows the notification under the header bell and marks it read', async () => {
    // The last popup may still lie over the header: close it as a user would.
    await ui.page.evaluate(() => document.querySelectorAll<HTMLElement>('.arco-notification-close-btn').forEach((b) => b.click()));
    await ui.expectText('bell-count', '1');
    await ui.clickTestId('header-bell');
    await ui.expectVisible('bell-list');
    await ui.expectText('bell-list', ALARM_TYPE);
    await ui.screenshotMatrix('bell-list', async () => {
      await ui.clickTestId('header-bell');
      await ui.expectText('bell-list', ALARM_TYPE);
    });
    await ui.clickTestId('bell-read-all');
    await expect.poll(() => ui.testId('bell-count').innerText(), E2E_POLL).not.toContain('1');
  });

  it("shows the alarm on the device's alarm tab, and schedules a command from its task tab", async () => {
    const [alarm] = (await call<AlarmPage>('GET', `/api/yt/alarm?deviceId=${device.id}`)).items;
    await ui.goto(`/device-manage/device/${device.id}/alarm`);
    await ui.expectText(`device-alarm-status-${alarm!.id}`, text('zh_CN', 'alarm:status.CLEARED_ACK'));
    await ui.screenshot('device-alarm-tab');

    await ui.goto(`/device-manage/device/${device.id}/task`);
    await ui.expectVisible('device-task-tab');
    await ui.expectPageText(text('zh_CN', 'scene:task.empty'));
    await ui.clickTestId('device-task-create');
    // Opened with a schedule trigger and a command to this device: the next five runs show at once.
    await expect.poll(() => ui.page.locator('[data-testid="scene-trigger-0-next-runs"] li').count(), E2E_POLL).toBe(5);
    await ui.fill('scene-form-name', '每日重启');
    await ui.fill('scene-trigger-0-cron', 'not a cron');
    await ui.expectText('scene-trigger-0-next-runs', text('zh_CN', 'scene:hint.cronInvalid'));
    await ui.fill('scene-trigger-0-cron', '0 30 6 * * *');
    await expect.poll(() => ui.page.locator('[data-testid="scene-trigger-0-next-runs"] li').count(), E2E_POLL).toBe(5);
    await ui.clickTestId('scene-action-0-command-type-CUSTOM');
    await ui.page.locator('textarea[data-testid="scene-action-0-content"]').fill('{"method":"reboot"}');
    await ui.screenshot('task-editor');
    await ui.clickTestId('scene-drawer-submit');
    await ui.expectHidden('scene-drawer-submit');
    const task = (await call<ScenePage>('GET', '/api/yt/scene_linkage')).items.find((s) => s.name === '每日重启');
    expect(task).toMatchObject({
      triggers: [{ type: 'SCHEDULE_TRIGGER', cron: '0 30 6 * * *' }],
      actions: [{ type: 'DEVICE_OUT', deviceId: device.id, commandType: 'CUSTOM', content: '{"method":"reboot"}' }],
    });
    await ui.expectVisible(`device-task-next-${task!.id}`);
    await ui.screenshotMatrix('device-task-tab', () => ui.expectVisible(`device-task-next-${task!.id}`));
  });

  it('keeps the editor usable at phone width', async () => {
    await ui.page.setViewportSize({ width: 390, height: 844 });
    try {
      await ui.goto('/rule-engine/scene-linkage');
      await ui.clickTestId('scene-create');
      await ui.expectVisible('scene-trigger-0-product');
      await ui.screenshot('phone-editor');
      await ui.clickTestId('scene-drawer-cancel');
    } finally {
      await ui.page.setViewportSize({ width: 1440, height: 900 });
    }
  });

  it('runs a HAND_ACT scene from the list and shows the run in its execution log', async () => {
    const scene = await handActScene('手动巡检', '巡检');
    await ui.goto('/rule-engine/scene-linkage');
    await ui.clickTestId(`scene-execute-${scene.id}`);
    await ui.clickTestId(`scene-execute-${scene.id}-confirm`);
    await ui.expectPageText(text('zh_CN', 'scene:executed', { ok: 1, failed: 0 }));
    await ui.clickTestId(`scene-log-${scene.id}`);
    await ui.expectText('scene-log-drawer', text('zh_CN', 'scene:outcome.SUCCESS'));
    await ui.expectText('scene-log-drawer', text('zh_CN', 'scene:summary.hand'));
    await ui.screenshot('scene-log');
  });

  it('offers a hand-run scene to customers with the editor\'s switch', async () => {
    const scene = await handActScene('客户巡检', '巡检');
    await ui.goto('/rule-engine/scene-linkage');
    await ui.screenshotMatrix('scene-editor-for-customers', async () => {
      await ui.clickTestId(`scene-edit-${scene.id}`);
      await ui.page.getByTestId('scene-form-for-customers').scrollIntoViewIfNeeded();
      await ui.expectVisible('scene-form-for-customers');
    });
    await ui.expectPageText(text('zh_CN', 'scene:hint.forCustomers'));
    await ui.clickTestId('scene-form-for-customers');
    await ui.clickTestId('scene-drawer-submit');
    await ui.expectHidden('scene-drawer-submit');
    expect((await call<Scene>('GET', `/api/yt/scene_linkage/${scene.id}`)).forCustomers).toBe(true);
  });

  it('says beside a schedule window past midnight that its hours belong to the chosen day itself', async () => {
    // The popup would cover the drawer's corner: no alarm is left unacknowledged.
    const open = await call<AlarmPage>('GET', '/api/yt/alarm?status=ACTIVE_UNACK');
    if (open.items.length) await call('POST', '/api/yt/alarm/batch/ack', { alarmIds: open.items.map((a) => a.id) });
    const scene = await handActScene('夜间巡检', '夜间', {
      schedule: { scheduleType: 'SPECIFIC_TIME', timeZone: 'Asia/Shanghai', weekdays: [1], startTime: '22:00', endTime: '02:00' },
    });
    await ui.goto('/rule-engine/scene-linkage');
    await ui.clickTestId(`scene-edit-${scene.id}`);
    await ui.expectText('scene-schedule-window-hint', text('zh_CN', 'scene:hint.pastMidnight', { start: '22:00', end: '02:00' }));
    await ui.clickTestId('scene-drawer-cancel');
    await ui.screenshotMatrix('scene-schedule-past-midnight', async () => {
      await ui.clickTestId(`scene-edit-${scene.id}`);
      await ui.expectVisible('scene-schedule-window-hint');
    });
  });

  it("counts alarms on the workbench card and follows a new one live, without a reload", async () => {
    const all = (await call<AlarmPage>('GET', '/api/yt/alarm')).items;
    const unack = all.filter((a) => a.status === 'ACTIVE_UNACK' || a.status === 'CLEARED_UNACK').length;
    const textOf = (id: string) => ui.page.getByTestId(id).textContent();
    await ui.goto('/dashboard/workbench');
    await expect.poll(() => textOf('wb-alarms-value'), E2E_POLL).toBe(String(all.length));
    await expect.poll(() => textOf('wb-alarms-unack'), E2E_POLL).toBe(`${text('zh_CN', 'workbench:summary.alarmsUnacknowledged')} ${unack}`);
    // The boiler's CRITICAL alarm was cleared: crossing again opens a new one, which the card counts live.
    const mqtt = await connectAsync(await mqttUrl(), { username: deviceToken, clientId: 'e2e-boiler-again' });
    closers.push(() => mqtt.endAsync());
    await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 70 }), { qos: 1 });
    await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 95 }), { qos: 1 });
    await expect.poll(() => textOf('wb-alarms-value'), E2E_POLL).toBe(String(all.length + 1));
    await expect.poll(() => textOf('wb-alarms-unack'), E2E_POLL).toBe(`${text('zh_CN', 'workbench:summary.alarmsUnacknowledged')} ${unack + 1}`);
  });

  it('says in the clear confirmation that a condition still holding raises a new alarm, and raises one on the next hot reading', async () => {
    // The last test's crossing left the boiler's alarm open at 95 °C.
    const [open] = (await call<AlarmPage>('GET', `/api/yt/alarm?deviceId=${device.id}&status=ACTIVE_UNACK`)).items;
    expect(open).toBeDefined();
    const confirmText = text('zh_CN', 'alarm:action.clearConfirm');
    await ui.goto('/maintenance/alarm-record');
    await ui.screenshotMatrix('alarm-clear-confirm', async () => {
      await ui.clickTestId(`alarm-clear-${open!.id}`);
      await ui.expectVisible(`alarm-clear-${open!.id}-confirm`);
    });
    await ui.expectPageText(confirmText);
    await ui.clickTestId(`alarm-clear-${open!.id}-confirm`);
    await ui.expectText(`alarm-status-${open!.id}`, text('zh_CN', 'alarm:status.CLEARED_UNACK'));

    // Still too hot: the next reading above 80 °C raises a new alarm without falling below first.
    const mqtt = await connectAsync(await mqttUrl(), { username: deviceToken, clientId: 'e2e-boiler-still-hot' });
    closers.push(() => mqtt.endAsync());
    await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 96 }), { qos: 1 });
    let raised: AlarmPage['items'][number] | undefined;
    await expect
      .poll(async () => {
        raised = (await call<AlarmPage>('GET', `/api/yt/alarm?deviceId=${device.id}&status=ACTIVE_UNACK`)).items[0];
        return raised?.id !== undefined && raised.id !== open!.id;
      }, E2E_POLL)
      .toBe(true);
    expect(raised).toMatchObject({ type: ALARM_TYPE, count: 1, details: { value: 96 } });
    await ui.reload();
    await ui.expectText(`alarm-status-${raised!.id}`, text('zh_CN', 'alarm:status.ACTIVE_UNACK'));
    await ui.screenshot('alarm-raised-again');
  });
});
