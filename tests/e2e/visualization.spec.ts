/**
 * Visualization through the built x64 binary in Chromium: a configuration made in the designer with
 * a value card (its unit from the published thing model), a switch, an alarm list and a video
 * widget on the real RTSP test camera, run full screen in the sandbox with the device's reported
 * value, the alarm it raises over MQTT listed live and a camera frame drawn, then opened through its share link in a second, signed-out browser (value shown and updated
 * live, the alarm listed, switch disabled, video said to be not shared), and refused with a clear page once the link is
 * revoked. Screens in zh_CN/en_US × light/dark (test-results/screenshots/visualization and
 * visualization-share).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { consolePaths } from '../../server/contract/console-paths.ts';
import type { DeviceCredentials } from '../../server/contract/credentials.ts';
import { launchBrowser, type BrowserSession, type Ui } from '../helpers/browser.ts';
import { adminPost, overheatSceneBody, reportTelemetry, seedDevice, temperatureProperty } from '../helpers/e2e-devices.ts';
import { E2E_ADMIN, startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { E2E_POLL } from '../helpers/e2e-wait.ts';
import { e2eMqttUrl } from '../helpers/e2e-mqtt.ts';
import { connectAsync } from 'mqtt';
import { CAMERA_PASSWORD, CAMERA_USER, startCamera, stopAllCameras } from '../helpers/rtsp-camera.ts';

let ui: Ui;
let gateway: E2eGateway;
let deviceId: string;
let deviceName: string;
let shareUrl: string;
let channelId: string;

/** The device reports a temperature over the HTTP device API, with its access token. */
async function report(temperature: number): Promise<void> {
  await reportTelemetry(gateway, deviceId, { temperature });
}

/**
 * Binds the selected widget to the device and `key`, through the server-searching device picker.
 * The key is typed at once, as a quick user does, usually before the device's thing model arrived.
 */
async function bind(key: string): Promise<void> {
  await pickDevice();
  await ui.fill('vis-prop-key', key);
}

async function pickDevice(): Promise<void> {
  await ui.clickTestId('vis-prop-device');
  await ui.page.keyboard.type(deviceName.slice(-4));
  await ui.clickTestId(`vis-prop-device-option-${deviceId}`);
}

/** The device publishes `temperature` over its MQTT connection, as a real boiler does. */
async function publish(temperature: number): Promise<void> {
  const { token } = await gateway.login();
  const res = await fetch(`${gateway.url}/api/yt/device/${deviceId}/credentials`, { headers: { authorization: `Bearer ${token}` } });
  const { credentialsId } = (await res.json()) as DeviceCredentials;
  const mqtt = await connectAsync(await e2eMqttUrl(gateway), { username: credentialsId, clientId: 'e2e-vis-boiler' });
  try {
    await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature }), { qos: 1 });
  } finally {
    await mqtt.endAsync();
  }
}

useE2eSpec('visualization', startE2eGateway, async (ctx) => {
  ({ ui, gateway } = ctx);
  await gateway.provision();
  const { product, device } = await seedDevice(gateway, { product: 'BOILER', device: 'boiler-01' });
  deviceId = device.id;
  deviceName = device.name;
  const post = await adminPost(gateway);
  await post('/api/yt/things_model', temperatureProperty(product.id));
  await post(`/api/yt/things_model/${product.id}/publish`, {});
  // Above 80 °C the boiler raises a CRITICAL alarm, which the alarm list widget shows.
  await post('/api/yt/scene_linkage', overheatSceneBody(product.id, { name: 'boiler_overheat', over: 80, severity: 'CRITICAL', alarmType: 'overheat' }));
  await report(21.5);
  const camera = await startCamera();
  ({ id: channelId } = await post<{ id: string }>('/api/yt/video/channel', { name: 'Boiler cam', manufacturer: 'hikvision', host: '127.0.0.1', rtspPort: camera.port, username: CAMERA_USER, password: CAMERA_PASSWORD }));
  await ui.goto('/login');
  await signIn(ui, E2E_ADMIN);
  await ui.expectVisible('main-layout');
});

afterAll(() => stopAllCameras());

/** Whether the video widget has drawn a frame of the test camera (640 wide). */
async function frameDrawn(): Promise<boolean> {
  return ui.page.getByTestId('vis-video-w4-video').evaluate((v: HTMLVideoElement) => v.readyState >= 2 && v.videoWidth === 640 && v.currentTime > 0);
}

describe('visualization', () => {
  it('makes a configuration with a value card, a switch, an alarm list and a video widget in the designer, and saves it', async () => {
    await ui.goto(consolePaths.visualizationSandbox);
    await ui.clickTestId('vis-create');
    await ui.fill('vis-create-name', 'Boiler room');
    await ui.clickTestId('vis-create-ok');
    await ui.expectVisible('vis-designer');
    await ui.clickTestId('vis-add-value');
    await bind('temperature');
    // The unit came from the published thing model, whenever it arrived.
    await expect.poll(() => ui.testId('vis-prop-unit').inputValue(), E2E_POLL).toBe('°C');
    await ui.fill('vis-prop-title', 'Temperature');
    await ui.clickTestId('vis-add-switch');
    await bind('power');
    await ui.clickTestId('vis-add-alarms');
    await pickDevice();
    await ui.fill('vis-prop-title', 'Alarms');
    // Its properties: several devices (one picked) and a product, both searching the server. A
    // click on the panel's heading closes the multiple picker's list, as a user does.
    await ui.testId('vis-props').locator('h4').click();
    await ui.expectText('vis-prop-device', deviceName);
    await ui.expectVisible('vis-prop-alarm-product');
    await ui.screenshot('designer-alarm-list');
    await ui.clickTestId('vis-add-video');
    await ui.clickTestId('vis-prop-channel');
    await ui.page.keyboard.type('Boiler');
    await ui.clickTestId(`vis-prop-channel-option-${channelId}`);
    await ui.clickTestId('vis-save');
    await ui.expectHidden('vis-unsaved');
    await ui.screenshotMatrix('designer', () => ui.expectVisible('vis-designer'));
  });

  it('runs it full screen in the sandbox with the device’s value, the alarm it raises over MQTT and the camera playing', async () => {
    await ui.clickTestId('vis-run');
    await ui.expectVisible('vis-sandbox');
    await ui.expectText('vis-value-w1', '21.5°C');
    await ui.expectVisible('vis-alarms-empty-w3');
    await publish(95);
    await ui.expectText('vis-alarms-w3', 'overheat');
    // Back to a normal reading: the alarm stays active (no clear rule) for the share page to show.
    await report(21.5);
    await ui.expectText('vis-value-w1', '21.5°C');
    await expect.poll(frameDrawn, E2E_POLL).toBe(true);
    await ui.screenshotMatrix('sandbox', async () => {
      await ui.expectText('vis-alarms-w3', 'overheat');
      await expect.poll(frameDrawn, E2E_POLL).toBe(true);
    });
    await ui.clickTestId('vis-sandbox-exit');
    await ui.expectVisible('vis-sandbox-page');
  });

  it('shares it read-only with a signed-out browser, and shows a clear page once revoked', async () => {
    const row = ui.page.locator('button[data-testid^="vis-share-"]').first();
    await row.click();
    await ui.clickTestId('vis-share-create');
    shareUrl = await ui.testId('vis-share-url').inputValue();
    expect(shareUrl).toMatch(/\/visualization\/share\/[A-Za-z0-9_-]{43}$/);

    const other: BrowserSession = await launchBrowser();
    try {
      const guest = await other.newUi(gateway.url, 'visualization-share');
      await guest.goto(new URL(shareUrl).pathname);
      await guest.expectText('vis-value-w1', '21.5°C');
      await expect.poll(() => guest.testId('vis-switch-w2').isDisabled(), E2E_POLL).toBe(true);
      await guest.expectText('vis-alarms-w3', 'overheat');
      // Video is not shared: the widget says so and no stream is opened.
      await guest.expectVisible('vis-video-unshared-w4');
      // A value the device reports now reaches the signed-out page over its own socket.
      await report(23);
      await guest.expectText('vis-value-w1', '23°C');
      await guest.screenshotMatrix('share', () => guest.expectText('vis-value-w1', '23°C'));

      // The revoked link's calls answer 404, which the browser reports on its console.
      guest.allowConsoleError(/404/);
      await ui.clickTestId('vis-share-revoke');
      await guest.reload();
      await guest.expectVisible('vis-share-gone');
      await guest.screenshot('share-revoked');
      guest.assertNoConsoleErrors();
    } finally {
      await other.close();
    }
  });
});
