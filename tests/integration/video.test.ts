import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { videoLivePath, videoRoutes, VIDEO_CLOSE_AUTH, VIDEO_CLOSE_ENDED, VIDEO_CLOSE_LIMIT, VIDEO_CLOSE_NO_FFMPEG, type VideoChannelBody } from '../../server/contract/video.ts';
import { tempDir } from '../helpers/app.ts';
import { createRoleUser } from '../helpers/roles.ts';
import { makeLiveApp, type LiveTestApp } from '../helpers/live.ts';
import { CAMERA_PASSWORD, CAMERA_USER, ffmpegsReading, startCamera, stopAllCameras, type RtspCamera } from '../helpers/rtsp-camera.ts';

let camera: RtspCamera;
beforeAll(async () => {
  camera = await startCamera();
}, 30_000);
afterAll(() => stopAllCameras());

const IDLE_STOP_MS = 1_000;

function app(options: Parameters<typeof makeLiveApp>[0] = {}): Promise<LiveTestApp> {
  return makeLiveApp({ listen: true, tuning: { videoIdleStopMs: IDLE_STOP_MS }, ...options });
}

function cameraChannel(body: Partial<VideoChannelBody> = {}): VideoChannelBody {
  return { name: 'gate camera', manufacturer: 'hikvision', host: '127.0.0.1', rtspPort: camera.port, username: CAMERA_USER, password: CAMERA_PASSWORD, ...body };
}

/** The ffmpeg processes reading from the test camera (any channel). */
function ffmpegsOfCamera(): number[] {
  return ffmpegsReading(camera.port);
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A viewer of a channel's live socket that keeps the binary messages and the close code. */
class Viewer {
  readonly messages: Buffer[] = [];
  closeCode: number | null = null;
  readonly socket: WebSocket;
  constructor(t: LiveTestApp, channelId: string, token: string | null = t.token) {
    const query = token ? `?token=${encodeURIComponent(token)}` : '';
    this.socket = new WebSocket(`${t.baseUrl.replace('http', 'ws')}${videoLivePath(channelId)}${query}`);
    this.socket.on('message', (data: Buffer) => this.messages.push(data));
    this.socket.on('close', (code) => (this.closeCode = code));
    this.socket.on('error', () => undefined);
  }
  boxTypes(message: Buffer): string[] {
    const types: string[] = [];
    for (let i = 0; i + 8 <= message.length; i += message.readUInt32BE(i)) types.push(message.toString('latin1', i + 4, i + 8));
    return types;
  }
  async closed(): Promise<number> {
    await waitFor(() => this.closeCode !== null, 'the socket to close');
    return this.closeCode!;
  }
  leave(): Promise<number> {
    this.socket.close();
    return this.closed();
  }
}

describe('video channels', () => {
  it('builds each maker’s address from host, port, channel and stream, and each reaches the camera (h264 640×360)', async () => {
    const t = await app();
    const cases = [
      { manufacturer: 'hikvision', streamType: 'sub', path: '/Streaming/Channels/102' },
      { manufacturer: 'dahua', streamType: 'master', path: '/cam/realmonitor?channel=1&subtype=0' },
      { manufacturer: 'uniview', streamType: 'third', path: '/unicast/c1/s2/live' },
    ] as const;
    const channels = [];
    for (const c of cases) {
      const channel = await t.api.ok(videoRoutes.create, { body: cameraChannel({ manufacturer: c.manufacturer, streamType: c.streamType }) });
      expect(channel.rtspAddress).toBe(`rtsp://127.0.0.1:${camera.port}${c.path}`);
      channels.push(channel);
    }
    channels.push(await t.api.ok(videoRoutes.create, { body: cameraChannel({ manufacturer: 'other', host: null, rtspAddress: `rtsp://127.0.0.1:${camera.port}/live` }) }));
    // Probed together: each waits for a keyframe, and the camera sends one every two seconds.
    const probes = await Promise.all(channels.map((c) => t.api.ok(videoRoutes.probe, { params: { id: c.id } })));
    for (const probe of probes) expect(probe).toEqual({ status: 'ONLINE', codec: 'h264', width: 640, height: 360 });
    expect((await t.api.ok(videoRoutes.get, { params: { id: channels[3]!.id } })).status).toBe('ONLINE');
  }, 120_000);

  it('never answers the password, keeps it on an edit without one, and stores it sealed', async () => {
    const t = await app();
    const created = await t.api.call(videoRoutes.create, { body: cameraChannel() });
    expect(created.body).not.toContain(CAMERA_PASSWORD);
    const channel = created.json();
    expect(channel).toMatchObject({ passwordSet: true, username: CAMERA_USER });
    const list = await t.api.call(videoRoutes.list);
    expect(list.body).not.toContain(CAMERA_PASSWORD);
    expect(list.body).not.toContain('p%23ss');
    const { password: _left, ...withoutPassword } = cameraChannel({ name: 'renamed' });
    await t.api.ok(videoRoutes.update, { body: { id: channel.id, ...withoutPassword } });
    expect(await t.api.ok(videoRoutes.probe, { params: { id: channel.id } })).toMatchObject({ status: 'ONLINE' });
    for (const file of readdirSync(t.dataDir).filter((f) => f.startsWith('edge.db') || f.endsWith('.db') || f.includes('-wal'))) {
      expect(readFileSync(join(t.dataDir, file)).includes(Buffer.from(CAMERA_PASSWORD))).toBe(false);
    }
    const cleared = await t.api.ok(videoRoutes.update, { body: { id: channel.id, ...withoutPassword, password: '' } });
    expect(cleared.passwordSet).toBe(false);
  }, 60_000);

  it('finds a refused password and an unreachable camera OFFLINE with a reason, never an error', async () => {
    const t = await app();
    const wrong = await t.api.ok(videoRoutes.create, { body: cameraChannel({ password: 'wrong#pass' }) });
    expect(await t.api.ok(videoRoutes.probe, { params: { id: wrong.id } })).toEqual({ status: 'OFFLINE', reason: 'AUTH_FAILED' });
    const closed = await t.api.ok(videoRoutes.create, { body: cameraChannel({ rtspPort: 1 }) });
    expect(await t.api.ok(videoRoutes.probe, { params: { id: closed.id } })).toEqual({ status: 'OFFLINE', reason: 'UNREACHABLE' });
    expect((await t.api.ok(videoRoutes.list, { query: { status: 'OFFLINE' } })).total).toBe(2);
    expect((await t.api.ok(videoRoutes.get, { params: { id: wrong.id } })).offlineReason).toBe('AUTH_FAILED');
    const thumbnail = await t.api.call(videoRoutes.thumbnail, { params: { id: wrong.id } });
    expect(thumbnail.statusCode).toBe(404);
    expect(thumbnail.json()).toMatchObject({ key: 'error.video.noFrame' });
  }, 60_000);

  it('refuses a bad host, port, typed address, credentials in the address and an unknown device, naming the field', async () => {
    const t = await app();
    const refusal = async (body: Partial<VideoChannelBody>): Promise<unknown> => {
      const res = await t.api.call(videoRoutes.create, { body: cameraChannel(body) });
      expect(res.statusCode).toBe(400);
      return res.json();
    };
    expect(await refusal({ host: '300.1.1.1' })).toMatchObject({ key: 'error.video.host', details: [{ field: 'body.host' }] });
    expect(await refusal({ host: null })).toMatchObject({ key: 'error.video.hostRequired' });
    expect(await refusal({ rtspPort: 70000 })).toMatchObject({ key: 'error.video.rtspPort' });
    expect(await refusal({ manufacturer: 'other', rtspAddress: 'http://cam/live' })).toMatchObject({ key: 'error.video.addressNotRtsp' });
    expect(await refusal({ manufacturer: 'other', rtspAddress: 'rtsp://u:p@cam/live' })).toMatchObject({ key: 'error.video.addressHasCredentials' });
    expect(await refusal({ deviceId: 'no-such-device' })).toMatchObject({ key: 'error.video.deviceNotFound', details: [{ field: 'body.deviceId' }] });
    expect(await refusal({ manufacturer: 'sony' as never })).toMatchObject({ key: 'error.field.choice' });
  });

  it('shows a customer only the channels of their organizations', async () => {
    const t = await app();
    const mine = await t.api.createOrganization({ name: 'mine' });
    const theirs = await t.api.createOrganization({ name: 'theirs' });
    const visible = await t.api.ok(videoRoutes.create, { body: cameraChannel({ name: 'visible', organizationId: mine.id }) });
    const hidden = await t.api.ok(videoRoutes.create, { body: cameraChannel({ name: 'hidden', organizationId: theirs.id }) });
    const customer = await createRoleUser(t.api, 'CUSTOMER_USER', [mine.id]);
    expect((await customer.api.ok(videoRoutes.list)).items.map((c) => c.name)).toEqual(['visible']);
    expect((await customer.api.call(videoRoutes.get, { params: { id: hidden.id } })).statusCode).toBe(404);
    expect((await customer.api.call(videoRoutes.create, { body: cameraChannel() })).statusCode).toBe(403);
    const viewer = new Viewer(t, hidden.id, customer.token);
    expect(await viewer.closed()).toBe(4404);
    expect((await customer.api.call(videoRoutes.get, { params: { id: visible.id } })).statusCode).toBe(200);
  });
});

describe('without ffmpeg', () => {
  it('says so, finds channels OFFLINE with FFMPEG_MISSING and refuses previews, while channels are still managed', async () => {
    const t = await app({ config: { ffmpegDir: tempDir('no-ffmpeg-') } });
    expect(await t.api.ok(videoRoutes.capabilities)).toMatchObject({ ffmpeg: false });
    const channel = await t.api.ok(videoRoutes.create, { body: cameraChannel() });
    expect(await t.api.ok(videoRoutes.probe, { params: { id: channel.id } })).toEqual({ status: 'OFFLINE', reason: 'FFMPEG_MISSING' });
    expect(await new Viewer(t, channel.id).closed()).toBe(VIDEO_CLOSE_NO_FFMPEG);
    expect((await t.api.ok(videoRoutes.update, { body: { id: channel.id, ...cameraChannel({ name: 'kept' }) } })).name).toBe('kept');
    expect(await t.api.ok(videoRoutes.delete, { body: { ids: [channel.id] } })).toEqual({ deleted: 1 });
  });

  it('closes a preview as ended, and stays up, when ffmpeg was removed after the start', async () => {
    const dir = tempDir('gone-ffmpeg-');
    for (const tool of ['ffmpeg', 'ffprobe']) writeFileSync(join(dir, tool), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const t = await app({ config: { ffmpegDir: dir } });
    const channel = await t.api.ok(videoRoutes.create, { body: cameraChannel() });
    rmSync(join(dir, 'ffmpeg'));
    expect(await new Viewer(t, channel.id).closed()).toBe(VIDEO_CLOSE_ENDED);
    expect((await t.api.ok(videoRoutes.capabilities)).activeStreams).toBe(0);
  });
});

describe('live preview', () => {
  it('sends the init segment then keyframe fragments to every viewer from one ffmpeg, stopped after the last viewer', async () => {
    const t = await app();
    const channel = await t.api.ok(videoRoutes.create, { body: cameraChannel({ manufacturer: 'uniview' }) });
    const first = new Viewer(t, channel.id);
    await waitFor(() => first.messages.length >= 2, 'an init segment and a fragment');
    expect(first.boxTypes(first.messages[0]!)).toEqual(['ftyp', 'moov']);
    expect(first.boxTypes(first.messages[1]!)).toEqual(['moof', 'mdat']);

    const late = new Viewer(t, channel.id);
    await waitFor(() => late.messages.length >= 2, 'the late viewer’s init segment and fragment');
    expect(late.messages[0]!.equals(first.messages[0]!)).toBe(true);
    expect(late.boxTypes(late.messages[1]!)).toEqual(['moof', 'mdat']);
    expect(ffmpegsOfCamera()).toHaveLength(1);
    expect((await t.api.ok(videoRoutes.capabilities)).activeStreams).toBe(1);

    await first.leave();
    await late.leave();
    await waitFor(() => ffmpegsOfCamera().length === 0, 'ffmpeg to stop after the last viewer');
    expect((await t.api.ok(videoRoutes.capabilities)).activeStreams).toBe(0);
  }, 60_000);

  it('refuses a preview beyond the stream limit while the others are watched, and one without a token', async () => {
    const t = await app({ config: { videoMaxStreams: 1 } });
    const one = await t.api.ok(videoRoutes.create, { body: cameraChannel({ name: 'one' }) });
    const two = await t.api.ok(videoRoutes.create, { body: cameraChannel({ name: 'two', streamType: 'sub' }) });
    const watching = new Viewer(t, one.id);
    await waitFor(() => watching.messages.length >= 1, 'the first stream');
    expect(await new Viewer(t, two.id).closed()).toBe(VIDEO_CLOSE_LIMIT);
    expect(await new Viewer(t, one.id, null).closed()).toBe(VIDEO_CLOSE_AUTH);
    expect(await new Viewer(t, one.id, 'not-a-token').closed()).toBe(VIDEO_CLOSE_AUTH);
    // Once nobody watches, the idle stream gives way to another channel.
    await watching.leave();
    const next = new Viewer(t, two.id);
    await waitFor(() => next.messages.length >= 1, 'the second channel’s stream');
    await next.leave();
    await waitFor(() => ffmpegsOfCamera().length === 0, 'ffmpeg to stop');
  }, 60_000);

  it('grabs a JPEG thumbnail and answers the same one again within ten minutes', async () => {
    const t = await app();
    const channel = await t.api.ok(videoRoutes.create, { body: cameraChannel() });
    const first = await t.api.call(videoRoutes.thumbnail, { params: { id: channel.id } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/jpeg');
    expect(first.rawPayload.subarray(0, 2).toString('hex')).toBe('ffd8');
    const again = await t.api.call(videoRoutes.thumbnail, { params: { id: channel.id } });
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
  }, 60_000);
});
