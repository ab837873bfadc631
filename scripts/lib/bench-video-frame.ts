/**
 * The video budget as a user meets it (issue 30: first frame in the browser ≤ 1.5 s after opening):
 * Debian Chromium (playwright-core, as the e2e specs drive it) on the video page clicks a channel's
 * preview and waits for the player's first decoded frame. Each run opens another channel of the
 * same 1080p test camera, so each starts a fresh ffmpeg and a fresh RTSP session (a viewer who
 * joins a running stream gets it sooner).
 *
 * Measured in the page's clock: the click event (a capture listener installed before it) → the
 * video element's first `requestVideoFrameCallback` (a frame decoded and handed to the compositor).
 * In between: the preview modal's lazy chunk, the websocket, the gateway starting ffmpeg, RTSP
 * set-up at the camera, the init segment and first fragment, MSE append and decode.
 */
import { chromium, type Page } from 'playwright-core';
import { consolePaths } from '../../server/contract/console-paths.ts';
import { videoRoutes } from '../../server/contract/video.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/helpers/browser.ts';
import { CAMERA_PASSWORD, CAMERA_USER, startCamera } from '../../tests/helpers/rtsp-camera.ts';
import { BENCH_ADMIN, startProvisionedGateway } from './bench-gateway.ts';
import { median } from './bench-measure.ts';
import type { RowSpec } from './bench-row.ts';

const RUNS = 5;
const FRAME_TIMEOUT_MS = 30_000;

declare global {
  interface Window {
    __benchClickAt?: number;
    __benchFrameAt?: number;
  }
}

/** Click → first decoded frame of the preview of channel `id`, in ms; the modal is closed again. */
async function firstFrame(page: Page, id: string): Promise<number> {
  await page.evaluate(() => {
    window.__benchClickAt = undefined;
    window.__benchFrameAt = undefined;
    document.addEventListener('click', () => (window.__benchClickAt ??= performance.now()), { capture: true, once: true });
    // The player's <video> is created by the click; watch for it and ask for its first frame.
    const seen = new WeakSet<HTMLVideoElement>();
    const watch = new MutationObserver(() => {
      for (const video of document.querySelectorAll<HTMLVideoElement>('[data-testid="video-preview-player-video"]')) {
        if (seen.has(video)) continue;
        seen.add(video);
        video.requestVideoFrameCallback(() => {
          window.__benchFrameAt ??= performance.now();
          watch.disconnect();
        });
      }
    });
    watch.observe(document.body, { childList: true, subtree: true });
  });
  await page.getByTestId(`video-preview-${id}`).click();
  await page.waitForFunction(() => window.__benchFrameAt !== undefined, undefined, { timeout: FRAME_TIMEOUT_MS });
  const ms = await page.evaluate(() => window.__benchFrameAt! - window.__benchClickAt!);
  await page.keyboard.press('Escape');
  await page.getByTestId('video-preview').waitFor({ state: 'detached' });
  return ms;
}

export async function videoFirstFrameRows(binary: string): Promise<RowSpec[]> {
  const camera = await startCamera({ width: 1920, height: 1080, fps: 25 });
  const gateway = await startProvisionedGateway(binary);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  try {
    const ids: string[] = [];
    // One channel more than runs: the first run warms the page's lazy chunks and is not counted.
    for (let i = 0; i <= RUNS; i++) {
      const channel = await gateway.http.call(videoRoutes.create, {
        body: { name: `bench frame ${i}`, manufacturer: 'hikvision', host: '127.0.0.1', rtspPort: camera.port, username: CAMERA_USER, password: CAMERA_PASSWORD },
      });
      ids.push(channel.id);
    }
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    await page.goto(`${gateway.bin.url}/login`);
    await page.getByTestId('login-username').fill(BENCH_ADMIN.username);
    await page.locator('[data-testid="login-password"] input, input[data-testid="login-password"]').first().fill(BENCH_ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.goto(`${gateway.bin.url}${consolePaths.video}`);
    await page.getByTestId(`video-preview-${ids[0]}`).waitFor();
    const runs: number[] = [];
    for (const [i, id] of ids.entries()) {
      const ms = await firstFrame(page, id);
      if (i > 0) runs.push(ms);
    }
    return [
      {
        id: 'videoFirstFrameMs',
        figure: 'video: first frame in Chromium after clicking preview (a fresh ffmpeg and RTSP session)',
        value: median(runs),
        unit: 'ms',
        budget: 1500,
        note: `median of ${RUNS} after a warm-up, each a new channel of the 1920×1080 25 fps H.264 test camera (keyframe every 2 s); click → requestVideoFrameCallback; runs ${runs.map((r) => r.toFixed(0)).join(', ')} ms`,
      },
    ];
  } finally {
    await browser.close();
    await gateway.stop();
    await camera.stop();
  }
}
