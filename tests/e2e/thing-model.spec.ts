/**
 * Thing models and live data in the browser, through the built x64 binary: an administrator defines
 * a product's thing model in the product's thing-model tab (a DOUBLE property with unit and range,
 * a BOOL property, a service with one BOOL input, an ALERT event) with no question after each item
 * but a draft banner, is asked once on leaving the unpublished model (stay, leave without
 * publishing, publish and leave), publishes it that way, and a simulated
 * device (scripts/lib/simulator.ts, real MQTT against the binary's broker) connects. On the
 * device's pages the value changes live, the history trend draws a chart, a two-way SERVICE command
 * comes back SUCCESSFUL in the records, the device's overheat event shows in event management, and
 * a command queued while the device is offline moves to SUCCESSFUL in the open records list, pushed
 * over the websocket, when the device returns.
 * Screens in zh_CN/en_US × light/dark (test-results/screenshots/thing-model).
 */
import { connectAsync } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import type { TokenPair } from '../../server/contract/auth.ts';
import type { Product } from '../../server/contract/product.ts';
import { startSimulator, type RunningSimulator } from '../../scripts/lib/simulator.ts';
import type { Ui } from '../helpers/browser.ts';
import { E2E_ADMIN, startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';
import { E2E_POLL } from '../helpers/e2e-wait.ts';

const PRODUCT = 'E2E温控器';

let gateway: E2eGateway;
let ui: Ui;
let product: Product;
let sim: RunningSimulator | null = null;
let deviceId: string;

useE2eSpec('thing-model', startE2eGateway, async (ctx) => {
  ({ gateway, ui } = ctx);
  await gateway.provision();
  const tokens: TokenPair = await gateway.login();
  const res = await fetch(`${gateway.url}/api/yt/device_profile`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: PRODUCT, deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT' }),
  });
  product = (await res.json()) as Product;
  await ui.goto('/login');
  await signIn(ui, E2E_ADMIN);
  await ui.expectVisible('main-layout');
});

afterAll(async () => {
  await sim?.stop();
});

/** The broker port the binary printed when it started listening (it runs with --mqtt-port 0). */
async function mqttUrl(): Promise<string> {
  await expect.poll(() => /device MQTT on port (\d+)/.test(gateway.output()), E2E_POLL).toBe(true);
  return `mqtt://127.0.0.1:${/device MQTT on port (\d+)/.exec(gateway.output())![1]}`;
}

/** One simulated device of the product, over real MQTT against the binary's broker (reused when started again). */
async function simulate(options: { rate: number; random?: () => number }): Promise<RunningSimulator> {
  const { username, password } = E2E_ADMIN;
  return startSimulator({ url: gateway.url, mqttUrl: await mqttUrl(), username, password, devices: 1, product: PRODUCT, ...options });
}

/**
 * Random numbers that make the simulated device's temperature climb into a heat episode at once
 * (scripts/lib/simulator-model.ts draws, per reading: episode start or end, the episode's target,
 * temperature noise, humidity noise) and then wobble by ±0.5 °C, so values keep changing and an
 * overheat event comes within seconds.
 */
function heatingRandom(): () => number {
  const start = [0.5, 0.5, 0.005, 0.99, 0.99, 0.5];
  const cycle = [0.99, 0.99, 0.5, 0.99, 0.01, 0.5];
  let i = 0;
  return () => (i < start.length ? start[i++]! : cycle[(i++ - start.length) % cycle.length]!);
}

/** Picks an option of an Arco select by its test id (the options carry `<select>-<VALUE>`). */
async function choose(select: string, option: string): Promise<void> {
  await ui.clickTestId(select);
  await ui.clickTestId(option);
}

/** Saves the drawer: the item is in the draft, and no question about publishing comes up. */
async function save(identifier: string): Promise<void> {
  const status = ui.page.waitForResponse((res) => /\/api\/yt\/things_model\/[^/]+\/status$/.test(new URL(res.url()).pathname));
  await ui.clickTestId('tm-drawer-submit');
  await ui.expectHidden('tm-drawer-submit');
  await ui.expectVisible(`tm-row-${identifier}`);
  await ui.expectText('tm-state-draft', text('zh_CN', 'thingModel:publish.unpublishedTitle'));
  // Once the status after the save has come, a question would be on its way in (it used to be).
  await status;
  await ui.settle();
  expect(await ui.page.locator('.arco-modal:visible').count()).toBe(0);
}

async function newItem(type: 'properties' | 'services' | 'events', name: string, identifier: string): Promise<void> {
  await ui.clickTestId('tm-create');
  await ui.expectVisible('tm-drawer-submit');
  await ui.clickTestId(`tm-function-type-${type}`);
  await ui.fill('tm-name', name);
  await ui.fill('tm-identifier', identifier);
}

describe('thing model in the product page', () => {
  it('refuses a maximum below the minimum inline, then adds a DOUBLE property with unit and range', async () => {
    await ui.goto(`/device-manage/product/${product.id}?tab=thingModel`);
    await ui.expectText('tm-state-empty', text('zh_CN', 'thingModel:publish.empty'));
    await newItem('properties', '温度', 'temperature');
    await choose('tm-type', 'tm-type-DOUBLE');
    await ui.fill('tm-min', '10');
    await ui.fill('tm-max', '5');
    await ui.clickTestId('tm-drawer-submit');
    await ui.expectFieldError('tm-max', text('zh_CN', 'errors:thingModel.number.maxBelowMin'));
    await ui.fill('tm-min', '-40');
    await ui.fill('tm-max', '125');
    await ui.fill('tm-step', '0.1');
    await ui.fill('tm-unit', '°C');
    await ui.screenshot('property-drawer');
    await save('temperature');
    await ui.expectText('tm-row-temperature', '温度');
    await ui.expectText('tm-state-draft', text('zh_CN', 'thingModel:publish.unpublishedTitle'));
    await ui.expectText('tm-status-temperature', text('zh_CN', 'thingModel:itemStatus.DRAFT'));
  });

  it('adds a BOOL property, a service with one BOOL input and an ALERT event, each saved to the draft without a question', async () => {
    await newItem('properties', '开关', 'switch');
    await ui.clickTestId('tm-access-mode-rw');
    await choose('tm-type', 'tm-type-BOOL');
    await ui.fill('tm-bool-close', '关');
    await ui.fill('tm-bool-open', '开');
    await save('switch');

    await newItem('services', '设置开关', 'setSwitch');
    await ui.clickTestId('tm-call-type-SYNC');
    await ui.clickTestId('tm-inputData-add');
    await ui.fill('tm-inputData-0-name', '开关');
    await ui.fill('tm-inputData-0-identifier', 'on');
    await choose('tm-inputData-0-type', 'tm-inputData-0-type-BOOL');
    await ui.fill('tm-inputData-0-bool-close', '关');
    await ui.fill('tm-inputData-0-bool-open', '开');
    await ui.screenshot('service-drawer');
    await save('setSwitch');

    await newItem('events', '过温告警', 'overheat');
    await ui.clickTestId('tm-event-type-ALERT');
    await ui.clickTestId('tm-outputData-add');
    await ui.fill('tm-outputData-0-name', '温度');
    await ui.fill('tm-outputData-0-identifier', 'temperature');
    await choose('tm-outputData-0-type', 'tm-outputData-0-type-DOUBLE');
    await ui.fill('tm-outputData-0-min', '-40');
    await ui.fill('tm-outputData-0-max', '125');
    await save('overheat');
    await ui.screenshotMatrix('thing-model-draft', () => ui.expectVisible('tm-state-draft'));
  });

  it('asks once on leaving the unpublished model: staying or leaving keeps the draft, publishing takes it live', async () => {
    // Another tab of the product: staying keeps the model open.
    await ui.clickTestId('product-tab-topic');
    await ui.expectVisible('tm-leave-stay');
    await ui.clickTestId('tm-leave-stay');
    await ui.expectHidden('tm-leave-stay');
    await ui.expectVisible('tm-state-draft');
    // Leaving without publishing opens the other tab; the draft is still there on return.
    await ui.clickTestId('product-tab-topic');
    await ui.clickTestId('tm-leave-without');
    await ui.expectVisible('topic-mosquitto');
    await ui.clickTestId('product-tab-thingModel');
    await ui.expectVisible('tm-state-draft');

    // Another menu entry: the same question; publishing takes the model live, then leaves.
    await ui.screenshotMatrix('leave-publish-question', async () => {
      await ui.expectVisible('tm-state-draft');
      await ui.clickTestId('menu-Device');
      await ui.expectVisible('tm-leave-publish');
    });
    await ui.clickTestId('tm-leave-publish');
    await ui.expectPath('/device-manage/device');
    await ui.goto(`/device-manage/product/${product.id}?tab=thingModel`);
    await ui.expectVisible('tm-state-published');
    await ui.expectHidden('tm-state-draft');
    await ui.expectText('tm-status-overheat', text('zh_CN', 'thingModel:itemStatus.PUBLISHED'));
    await ui.expectText('product-detail-page', text('zh_CN', 'product:status.PUBLISHED'));
    await ui.clickTestId('tm-tsl');
    await ui.expectText('tm-tsl-json', '"identifier": "setSwitch"');
    await ui.page.keyboard.press('Escape');
    await ui.screenshotMatrix('thing-model-tab', () => ui.expectVisible('tm-state-published'));
  });

  it("gives copy-paste MQTT commands with the ports the gateway really listens on, plain and TLS", async () => {
    // The binary runs on ephemeral ports, never the default 1883/8883: the commands must say which.
    const plain = (await mqttUrl()).split(':').pop()!;
    const tls = /device MQTT over TLS on port (\d+)/.exec(gateway.output())![1]!;
    await ui.goto(`/device-manage/product/${product.id}?tab=topic`);
    await ui.expectText('topic-mosquitto', `-p ${plain} `);
    await ui.expectText('topic-mosquitto-tls', `-p ${tls} --cafile gateway-mqtts.pem`);
    await ui.screenshotMatrix('topic-tab', () => ui.expectVisible('topic-mosquitto-tls'));
  });
});

describe('a simulated device of the product', () => {
  it('shows a value changing live and the device online', async () => {
    sim = await simulate({ rate: 4, random: heatingRandom() });
    deviceId = sim.devices[0]!.identity.id;
    await ui.goto(`/device-manage/device/${deviceId}/thingModel`);
    await ui.expectText('data-device-state', text('zh_CN', 'device:state.ONLINE'));
    const value = ui.testId('data-value-temperature');
    await ui.expectLocatorText(value, '°C');
    const first = await value.innerText();
    // The same page, no reload: the websocket brings the next readings.
    await ui.page.waitForFunction(
      ([id, before]) => document.querySelector(`[data-testid="${id}"]`)?.textContent !== before,
      ['data-value-temperature', await value.textContent()] as const,
    );
    expect(await value.innerText()).not.toBe(first);
    await ui.screenshotMatrix('device-data', () => ui.expectLocatorText(ui.testId('data-value-temperature'), '°C'));
  });

  it('asks for a property before a history query, then draws the chart and lists the values', async () => {
    await ui.clickTestId('data-history');
    await ui.expectText('history-blocker', text('zh_CN', 'telemetry:history.needKeys'));
    expect(await ui.testId('history-query').isDisabled()).toBe(true);
    await choose('history-keys', 'history-key-temperature');
    await ui.clickTestId('history-query');
    await ui.page.waitForFunction(() => Number(document.querySelector('[data-testid="history-chart"]')?.getAttribute('data-points')) > 0);
    await ui.expectVisible('history-chart');
    expect(await ui.page.locator('[data-testid="history-chart"] canvas').count()).toBeGreaterThan(0);
    await ui.screenshot('history-chart');
    await ui.clickTestId('history-view-table');
    await ui.expectLocatorText(ui.testId('history-table'), '°C');
    await ui.page.keyboard.press('Escape');
    await ui.expectHidden('history-drawer');
  });

  it("opens a property's history at once, keeping a flagged reading off the line until asked for", async () => {
    // A reading far out of the model's -40..125 °C range, sent with the simulated device's token.
    const device = await connectAsync(await mqttUrl(), { username: sim!.devices[0]!.identity.token, clientId: 'e2e-flagged' });
    await device.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: Date.now() - 1_000, values: { temperature: 9_999 } }), { qos: 1 });
    await device.endAsync();
    const points = (): Promise<number> => ui.page.evaluate(() => Number(document.querySelector('[data-testid="history-chart"]')?.getAttribute('data-points')));

    await ui.clickTestId('data-history-temperature');
    // No click on 查询: the card's property is queried as the drawer opens.
    await ui.page.waitForFunction(() => Number(document.querySelector('[data-testid="history-chart"]')?.getAttribute('data-points')) > 0);
    await ui.expectVisible('history-show-flagged');
    await ui.expectPageText(text('zh_CN', 'telemetry:history.showFlagged', { count: 1 }));
    const onLine = await points();
    await ui.clickTestId('history-show-flagged');
    await ui.page.waitForFunction((before) => Number(document.querySelector('[data-testid="history-chart"]')?.getAttribute('data-points')) > before, onLine);
    await ui.screenshot('history-flagged-shown');
    await ui.page.keyboard.press('Escape');
    await ui.expectHidden('history-drawer');
  });

  it('sends a two-way SERVICE command, sees it succeed and the switch follow', async () => {
    await ui.clickTestId('data-service-command-setSwitch');
    // The BOOL input is a switch named by the model's 关/开, starting off.
    await ui.expectText('cmd-param-on', '关');
    await ui.expectText('cmd-preview', '"on": false');
    await ui.clickTestId('cmd-send');
    await ui.expectText('cmd-result-status', text('zh_CN', 'command:status.SUCCESSFUL'));
    await ui.expectPageText(text('zh_CN', 'command:result.successful'));
    await ui.screenshot('command-sent');
    await ui.clickTestId('cmd-cancel');
    await ui.expectText('data-value-switch', '关');

    await ui.clickTestId('device-tab-command');
    const status = ui.page.locator('[data-testid^="cmd-status-"]').first();
    await ui.expectLocatorText(status, text('zh_CN', 'command:status.SUCCESSFUL'));
    await ui.expectText('command-tab', text('zh_CN', 'command:type.SERVICE'));
    await ui.page.locator('[data-testid^="cmd-response-"]').first().click();
    await ui.expectText('cmd-json-view', '"success": true');
    await ui.page.keyboard.press('Escape');
    await ui.screenshotMatrix('command-records', () => ui.expectVisible('command-tab'));
  });

  it('sets a BOOL property with a switch built from the thing model, and the record holds that payload', async () => {
    await ui.clickTestId('device-tab-thingModel');
    await ui.screenshotMatrix('command-attribute-switch', async () => {
      await ui.clickTestId('data-command-switch');
      await ui.expectText('cmd-preview', '"switch": false');
    });
    await ui.clickTestId('cmd-value-switch');
    await ui.expectText('cmd-preview', '"switch": true');
    // Raw JSON is the advanced option, starting from what the form made.
    await ui.clickTestId('cmd-raw-json');
    await expect.poll(() => ui.page.locator('textarea[data-testid="cmd-content"]').inputValue(), E2E_POLL).toContain('"switch": true');
    await ui.clickTestId('cmd-raw-json');
    await ui.expectText('cmd-preview', '"switch": true');
    await ui.clickTestId('cmd-send');
    await ui.expectVisible('cmd-result-status');
    await ui.clickTestId('cmd-cancel');

    await ui.clickTestId('device-tab-command');
    const content = ui.page.locator('[data-testid^="cmd-content-"]').first();
    await expect.poll(() => content.innerText(), E2E_POLL).toMatch(/"switch":\s*true/);
    await ui.expectText('command-tab', text('zh_CN', 'command:type.ATTRIBUTE'));
  });

  it('lists the overheat event with its type and output parameter', async () => {
    await ui.clickTestId('device-tab-event');
    const name = ui.page.locator('[data-testid^="event-name-"]').first();
    await expect
      .poll(async () => {
        await ui.clickTestId('event-refresh');
        return (await name.count()) > 0 ? name.innerText() : '';
      }, { ...E2E_POLL, interval: 1000 })
      .toContain('过温告警');
    await ui.expectLocatorText(ui.page.locator('[data-testid^="event-type-"]').first(), text('zh_CN', 'eventRecord:type.ALERT'));
    await ui.expectLocatorText(ui.page.locator('[data-testid^="event-params-"]').first(), '温度');
    await ui.screenshotMatrix('events', () => ui.expectVisible('event-tab'));
  });

  it('refuses a reboot once the device is offline, with the server\'s message', async () => {
    await sim?.stop();
    sim = null;
    // The refusal is a 400 the browser logs as a failed resource: expected here.
    ui.allowConsoleError(/\/reboot\b/);
    await ui.clickTestId('device-tab-command');
    await ui.clickTestId('cmd-reboot');
    await ui.clickTestId('cmd-reboot-confirm');
    await ui.expectPageText(text('zh_CN', 'errors:command.deviceOffline'));
  });

  it('queues a two-way ASYNC command while the device is offline and follows it live to SUCCESSFUL when the device returns', async () => {
    await ui.clickTestId('cmd-open');
    await ui.clickTestId('cmd-call-type-ASYNC');
    await ui.clickTestId('cmd-param-on');
    await ui.expectText('cmd-preview', '"on": true');
    await ui.clickTestId('cmd-send');
    await ui.expectText('cmd-result-status', text('zh_CN', 'command:status.QUEUED'));
    await ui.clickTestId('cmd-cancel');
    const status = ui.page.locator('[data-testid^="cmd-status-"]').first();
    await ui.expectLocatorText(status, text('zh_CN', 'command:status.QUEUED'));
    // From here the page must not load the list again: the websocket brings every status.
    const reloads: string[] = [];
    const onRequest = (request: { method(): string; url(): string }): void => {
      if (request.method() === 'GET' && /\/api\/yt\/device\/[^/]+\/command/.test(request.url())) reloads.push(request.url());
    };
    ui.page.on('request', onRequest);
    sim = await simulate({ rate: 1 });
    await ui.expectLocatorText(status, text('zh_CN', 'command:status.SUCCESSFUL'));
    ui.page.off('request', onRequest);
    expect(reloads).toEqual([]);
    // The status tells when the device acknowledged the request (its PUBACK: DELIVERED).
    await status.hover();
    await ui.expectPageText(`${text('zh_CN', 'command:fields.deliveredTime')}: `);
    await ui.screenshot('command-delivered-time');
    await ui.page.mouse.move(0, 0);
    await ui.page.locator('[data-testid^="cmd-response-"]').first().click();
    await ui.expectText('cmd-json-view', '"success": true');
    await ui.page.keyboard.press('Escape');
    await ui.screenshotMatrix('command-live', async () => {
      await ui.expectVisible('command-tab');
      await ui.page.locator('[data-testid^="cmd-status-"]').first().waitFor();
    });
  });
});
