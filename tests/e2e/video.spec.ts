/**
 * The video center in the browser, through the built x64 binary and a real RTSP camera
 * (tests/helpers/rtsp-camera.py, digest auth, a password with `#`, `@` and `:`): an administrator
 * adds a Hikvision channel in the drawer (the address preview follows the maker's rule), probes it
 * ONLINE, and opens its live preview, whose video element draws a frame from the gateway's fMP4
 * websocket. Then syncs channels from an ONVIF device (tests/helpers/onvif-responder.ts, a clock
 * hours off) in the sync dialog: a wrong password is said in the dialog, the right one adds a
 * channel per profile, and a profile that vanished is tagged on re-sync. Screens in zh_CN/en_US ×
 * light/dark (test-results/screenshots/video).
 */
import { afterAll, expect, it } from 'vitest';
import type { VideoChannelPage } from '../../server/contract/video.ts';
import type { Ui } from '../helpers/browser.ts';
import { E2E_ADMIN, startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';
import { E2E_POLL } from '../helpers/e2e-wait.ts';
import { startOnvifResponder, type OnvifResponder } from '../helpers/onvif-responder.ts';
import { CAMERA_PASSWORD, CAMERA_USER, startCamera, stopAllCameras, type RtspCamera } from '../helpers/rtsp-camera.ts';

let gateway: E2eGateway;
let ui: Ui;
let camera: RtspCamera;

useE2eSpec('video', startE2eGateway, async (ctx) => {
  ({ gateway, ui } = ctx);
  camera = await startCamera();
  await gateway.provision();
  await ui.goto('/login');
  await signIn(ui, E2E_ADMIN);
  await ui.expectVisible('main-layout');
});

let onvif: OnvifResponder | null = null;
afterAll(async () => {
  await onvif?.close();
  await stopAllCameras();
});

/** Whether the preview's video element has drawn a frame (a decoded picture of the camera's size). */
async function frameDrawn(): Promise<boolean> {
  return ui.page.getByTestId('video-preview-player-video').evaluate((v: HTMLVideoElement) => v.readyState >= 2 && v.videoWidth === 640 && v.currentTime > 0);
}

/** The drawer's fields for the test camera (a reload for the screenshots empties them). */
async function fillChannel(): Promise<void> {
  await ui.fill('video-form-name', 'E2E门口');
  await ui.fill('video-form-host', '127.0.0.1');
  await ui.fill('video-form-rtspPort', String(camera.port));
  await ui.fill('video-form-username', CAMERA_USER);
  await ui.page.getByTestId('video-form-password').fill(CAMERA_PASSWORD);
}

it('adds a channel by the maker’s rule, probes it online and plays its live preview', async () => {
  await ui.goto('/video-center/video');
  await ui.expectVisible('video-page');
  await ui.clickTestId('video-create');
  await ui.expectVisible('video-drawer');
  await fillChannel();
  await ui.expectText('video-form-address-preview', `rtsp://127.0.0.1:${camera.port}/Streaming/Channels/101`);
  await ui.screenshotMatrix('video-drawer', async () => {
    await ui.clickTestId('video-create');
    await ui.expectVisible('video-drawer');
  });
  await fillChannel();
  await ui.clickTestId('video-drawer-submit');
  await ui.expectPageText(text('zh_CN', 'video:created'));

  const { token } = await gateway.login();
  const listed = await fetch(`${gateway.url}/api/yt/video/channel`, { headers: { authorization: `Bearer ${token}` } });
  const { items } = (await listed.json()) as VideoChannelPage;
  const id = items[0]!.id;
  await ui.clickTestId(`video-probe-${id}`);
  await ui.expectText(`video-status-${id}`, text('zh_CN', 'video:status.ONLINE'));

  await ui.clickTestId(`video-preview-${id}`);
  await ui.expectVisible('video-preview-player-video');
  await expect.poll(frameDrawn, E2E_POLL).toBe(true);
  await ui.screenshotMatrix('video-preview', async () => {
    await ui.clickTestId(`video-preview-${id}`);
    await expect.poll(frameDrawn, E2E_POLL).toBe(true);
  });
}, 240_000);

/** Opens the sync dialog, fills it for the ONVIF device with `password` and sends it. */
async function syncWith(password: string): Promise<void> {
  await ui.clickTestId('video-sync');
  await ui.expectVisible('video-sync-form');
  await fillSync(password);
}

/** Fills the open sync dialog and sends it. */
async function fillSync(password: string): Promise<void> {
  await ui.fill('video-sync-host', '127.0.0.1');
  await ui.fill('video-sync-port', String(onvif!.port));
  await ui.fill('video-sync-username', CAMERA_USER);
  await ui.page.getByTestId('video-sync-password').fill(password);
  await ui.clickTestId('video-sync-submit');
}

it('syncs an ONVIF device’s profiles in the sync dialog, says a wrong password there, and tags a profile that vanished', async () => {
  onvif = await startOnvifResponder({
    username: CAMERA_USER,
    password: CAMERA_PASSWORD,
    skewMs: 5 * 3_600_000,
    profiles: [
      { token: 'main', name: 'mainStream', uri: `rtsp://127.0.0.1:${camera.port}/Streaming/Channels/101` },
      { token: 'sub', name: 'subStream', uri: `rtsp://127.0.0.1:${camera.port}/Streaming/Channels/102` },
    ],
  });
  // The refused syncs are 400s on purpose; the browser logs each.
  ui.allowConsoleError(/\/api\/yt\/video\/sync/);
  await ui.goto('/video-center/video');
  await ui.expectVisible('video-page');
  await syncWith('wrong');
  await ui.expectText('video-sync-error', text('zh_CN', 'errors:video.onvifAuthFailed', { host: `127.0.0.1:${onvif.port}` }));
  await ui.screenshotMatrix('video-sync-refused', async () => {
    await syncWith('wrong');
    await ui.expectVisible('video-sync-error');
  });

  // The matrix leaves the dialog open with its refusal: the right password in the same dialog.
  await fillSync(CAMERA_PASSWORD);
  await ui.expectHidden('video-sync-form');
  await ui.expectPageText('TC-2000 subStream');

  onvif.options.profiles = onvif.options.profiles.filter((p) => p.token !== 'sub');
  await syncWith(CAMERA_PASSWORD);
  await ui.expectHidden('video-sync-form');
  const { token } = await gateway.login();
  const listed = await fetch(`${gateway.url}/api/yt/video/channel?name=subStream`, { headers: { authorization: `Bearer ${token}` } });
  const sub = ((await listed.json()) as VideoChannelPage).items[0]!;
  expect(sub.syncMissing).toBe(true);
  await ui.expectVisible(`video-missing-${sub.id}`);
  await ui.screenshotMatrix('video-synced', () => ui.expectVisible(`video-missing-${sub.id}`));
}, 240_000);
