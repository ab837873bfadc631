import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/free-port.ts';
import { videoRoutes, type VideoChannel, type VideoSyncBody } from '../../server/contract/video.ts';
import { makeLiveApp, type LiveTestApp } from '../helpers/live.ts';
import { startOnvifResponder, startSilentHost, type OnvifResponder, type ResponderOptions } from '../helpers/onvif-responder.ts';
import { CAMERA_PASSWORD, CAMERA_USER, startCamera, stopAllCameras, type RtspCamera } from '../helpers/rtsp-camera.ts';
import { waitFor } from '../helpers/wait-for.ts';

const HOURS = 3_600_000;
/** A camera's ONVIF account is usually its RTSP account too. */
const ONVIF_USER = CAMERA_USER;
const ONVIF_PASSWORD = CAMERA_PASSWORD;

let camera: RtspCamera;
beforeAll(async () => {
  camera = await startCamera();
}, 30_000);
afterAll(() => stopAllCameras());

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A device hours ahead of us whose profiles point at the test camera (one URI carries credentials, as some NVRs answer). */
async function responder(options: Partial<ResponderOptions> = {}): Promise<OnvifResponder> {
  const credentials = `${encodeURIComponent(CAMERA_USER)}:${encodeURIComponent(CAMERA_PASSWORD)}@`;
  const r = await startOnvifResponder({
    username: ONVIF_USER,
    password: ONVIF_PASSWORD,
    skewMs: 7 * HOURS,
    profiles: [
      { token: 'Profile_1', name: 'mainStream', uri: `rtsp://127.0.0.1:${camera.port}/Streaming/Channels/101` },
      { token: 'Profile_2', name: 'subStream', uri: `rtsp://${credentials}127.0.0.1:${camera.port}/Streaming/Channels/102` },
      { token: 'Profile_3', name: 'thirdStream', uri: `rtsp://127.0.0.1:${camera.port}/cam/realmonitor?channel=1&subtype=2` },
    ],
    ...options,
  });
  closers.push(() => r.close());
  return r;
}

async function app(): Promise<LiveTestApp> {
  return makeLiveApp({ listen: true, tuning: { videoIdleStopMs: 1_000, onvifTimeoutMs: 1_500 } });
}

function syncBody(port: number, body: Partial<VideoSyncBody> = {}): VideoSyncBody {
  return { host: '127.0.0.1', port, username: ONVIF_USER, password: ONVIF_PASSWORD, ...body };
}

async function channels(t: LiveTestApp): Promise<VideoChannel[]> {
  return (await t.api.ok(videoRoutes.list, { query: { pageSize: 100 } })).items.sort((a, b) => a.channelNo - b.channelNo);
}

async function syncOk(t: LiveTestApp, body: VideoSyncBody): Promise<unknown> {
  const res = await t.api.call(videoRoutes.sync, { body });
  expect(res.statusCode).toBe(202);
  return res.json();
}

async function refusal(t: LiveTestApp, body: VideoSyncBody): Promise<{ statusCode: number; key: string; message: string }> {
  const res = await t.api.call(videoRoutes.sync, { body, lang: 'en-US' });
  return { statusCode: res.statusCode, ...(res.json() as { key: string; message: string }) };
}

describe('ONVIF channel sync', () => {
  it('signs with a camera clock 7 hours off, makes a channel per profile, and their probes then find them ONLINE', async () => {
    const t = await app();
    const device = await responder();
    const res = await t.api.call(videoRoutes.sync, { body: syncBody(device.port) });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ created: 3, updated: 0, missing: 0 });
    expect(device.calls.filter((c) => c.endsWith('refused'))).toEqual([]);

    const synced = await channels(t);
    expect(synced.map((c) => [c.name, c.manufacturer, c.rtspAddress, c.syncProfileToken, c.model])).toEqual([
      ['TC-2000 mainStream', 'other', `rtsp://127.0.0.1:${camera.port}/Streaming/Channels/101`, 'Profile_1', 'TC-2000'],
      ['TC-2000 subStream', 'other', `rtsp://127.0.0.1:${camera.port}/Streaming/Channels/102`, 'Profile_2', 'TC-2000'],
      ['TC-2000 thirdStream', 'other', `rtsp://127.0.0.1:${camera.port}/cam/realmonitor?channel=1&subtype=2`, 'Profile_3', 'TC-2000'],
    ]);
    expect(synced.every((c) => c.syncSource === `127.0.0.1:${device.port}` && c.username === ONVIF_USER && c.passwordSet && !c.syncMissing)).toBe(true);
    expect(JSON.stringify(synced)).not.toContain(ONVIF_PASSWORD);

    // "Channel synced, refresh later": the probes ran after the answer, with the synced credentials.
    await waitFor('the background probes', async () => ((await channels(t)).every((c) => c.status !== 'UNKNOWN') ? true : null), 60_000);
    // On a loaded machine ffprobe may miss its deadline: such a channel is probed again, as a user would.
    const probed = await waitFor('the synced channels ONLINE', async () => {
      const items = await channels(t);
      const late = items.filter((c) => c.status === 'OFFLINE' && c.offlineReason === 'TIMEOUT');
      await Promise.all(late.map((c) => t.api.ok(videoRoutes.probe, { params: { id: c.id } })));
      return items.every((c) => c.status === 'ONLINE') ? items : null;
    }, 60_000);
    expect(probed.map((c) => [c.codec, c.width, c.height])).toEqual(Array(3).fill(['h264', 640, 360]));
  }, 90_000);

  it('updates the same channels on a re-sync, keeps a user’s name, and marks the profile that disappeared instead of deleting it', async () => {
    const t = await app();
    const device = await responder();
    await syncOk(t, syncBody(device.port));
    const [main, sub, third] = await channels(t);
    await t.api.ok(videoRoutes.update, { body: { id: main!.id, name: 'gate', manufacturer: 'other', rtspAddress: main!.rtspAddress } });

    device.options.profiles = device.options.profiles.filter((p) => p.token !== 'Profile_2');
    device.options.profiles[1]!.uri = `rtsp://127.0.0.1:${camera.port}/live`;
    expect(await syncOk(t, syncBody(device.port))).toEqual({ created: 0, updated: 2, missing: 1 });

    const after = await channels(t);
    expect(after.map((c) => c.id)).toEqual([main!.id, sub!.id, third!.id]);
    expect(after.map((c) => [c.name, c.syncMissing])).toEqual([['gate', false], ['TC-2000 subStream', true], ['TC-2000 thirdStream', false]]);
    expect(after[2]!.rtspAddress).toBe(`rtsp://127.0.0.1:${camera.port}/live`);

    // The profile is back: the same channel, no longer marked.
    device.options.profiles.push({ token: 'Profile_2', name: 'subStream', uri: `rtsp://127.0.0.1:${camera.port}/Streaming/Channels/102` });
    expect(await syncOk(t, syncBody(device.port))).toEqual({ created: 0, updated: 3, missing: 0 });
    expect((await channels(t)).map((c) => c.syncMissing)).toEqual([false, false, false]);
  }, 60_000);

  it('falls back to HTTP digest for a device that wants it', async () => {
    const t = await app();
    const device = await responder({ httpDigest: true });
    expect((await t.api.call(videoRoutes.sync, { body: syncBody(device.port) })).statusCode).toBe(202);
    expect(await channels(t)).toHaveLength(3);
    const wrong = await refusal(t, syncBody(device.port, { password: 'nope' }));
    expect(wrong).toMatchObject({ statusCode: 400, key: 'error.video.onvifAuthFailed' });
  });

  it('refuses a wrong password, a clock that lies, a closed port, a silent host and a host that is not ONVIF, each with its own message', async () => {
    const t = await app();
    const device = await responder();
    const host = (port: number): string => `127.0.0.1:${port}`;
    expect(await refusal(t, syncBody(device.port, { password: 'wrong' }))).toEqual({
      statusCode: 400, code: 31, key: 'error.video.onvifAuthFailed', message: `${host(device.port)} refused the user name or password`,
    });
    const liar = await responder({ checksAgainstMs: 0 });
    expect(await refusal(t, syncBody(liar.port))).toMatchObject({ statusCode: 400, key: 'error.video.onvifClockSkew' });

    const closed = await freePort();
    expect(await refusal(t, syncBody(closed))).toMatchObject({ statusCode: 400, key: 'error.video.onvifUnreachable' });
    const silent = await startSilentHost();
    closers.push(() => silent.close());
    expect(await refusal(t, syncBody(silent.port))).toMatchObject({ statusCode: 400, key: 'error.video.onvifTimeout' });
    // The gateway's own HTTP port: a web server, not a camera.
    const own = Number(new URL(t.baseUrl).port);
    expect(await refusal(t, syncBody(own))).toMatchObject({ statusCode: 400, key: 'error.video.onvifNotOnvif' });

    const zh = await t.api.call(videoRoutes.sync, { body: syncBody(device.port, { password: 'wrong' }), lang: 'zh-CN' });
    expect(zh.json()).toMatchObject({ message: `${host(device.port)} 拒绝了用户名或密码` });
    expect(await refusal(t, syncBody(70000))).toMatchObject({ statusCode: 400, key: 'error.video.onvifPort' });
    expect(await channels(t)).toEqual([]);
  }, 60_000);
});
