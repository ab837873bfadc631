import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { App } from '../../server/app.ts';
import { authRoutes } from '../../server/contract/auth.ts';
import { makeApp } from '../helpers/app.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { LiveClient } from '../helpers/live.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';

const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

async function listen(app: App): Promise<{ port: number; base: string }> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as { port: number }).port;
  return { port, base: `http://127.0.0.1:${port}` };
}

/** A TCP connection that sends nothing. */
function silentSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve(socket));
    socket.once('close', () => reject(new Error('closed before connecting')));
  });
}

/** Whether `socket` is closed by the other side within `ms`. */
function closedWithin(socket: Socket, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function connectionsOf(app: App): Promise<number> {
  return new Promise((resolve, reject) => app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
}

/** Opens `count` silent connections, each seen by the server before the next. */
async function holdConnections(app: App, port: number, count: number): Promise<Socket[]> {
  const held: Socket[] = [];
  for (let i = 0; i < count; i++) {
    held.push(await silentSocket(port));
    await eventually(() => connectionsOf(app), (n) => n === i + 1);
  }
  return held;
}

describe('HTTP connections', () => {
  it('closes a connection that sends nothing once the idle timeout passes, but not a long poll or a websocket that wait longer', async () => {
    const t = await makeDeviceApp({ tuning: { http: { idleTimeoutMs: 300 } } });
    const deviceToken = await tokenOf(t.api, (await t.api.createDevice()).id);
    const { port, base } = await listen(t.app);

    const silent = await silentSocket(port);
    const started = Date.now();
    expect(await closedWithin(silent, 3_000)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);

    // A long poll of 1 s and a websocket idle for 1 s both outlast the 300 ms idle timeout.
    const live = await LiveClient.open({ baseUrl: base }, { token: t.api.token! });
    const poll = await fetch(`${base}/api/v1/${deviceToken}/rpc?timeout=1000`);
    expect(poll.status).toBe(408);
    expect(live.socket.readyState).toBe(WebSocket.OPEN);
    live.send({ cmds: [{ type: 'TIMESERIES', cmdId: 1, entityType: 'DEVICE', entityId: 'none', scope: 'LATEST_TELEMETRY' }] });
    expect(await live.next()).toMatchObject({ cmdId: 1 });
  });

  it('refuses a connection beyond the cap for one address and serves that address again once one closes', async () => {
    const t = await makeApp({ tuning: { http: { connectionsPerAddress: 3 } } });
    const { port, base } = await listen(t.app);
    const held = await holdConnections(t.app, port, 3);

    const refused = connect(port, '127.0.0.1');
    sockets.push(refused);
    refused.on('error', () => undefined);
    expect(await closedWithin(refused, 2_000)).toBe(true);
    for (const socket of held) expect(socket.destroyed).toBe(false);

    held[0]!.destroy();
    await eventually(() => connectionsOf(t.app), (n) => n === 2);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  });

  it('keeps three quarters of the open-file limit for devices: HTTP connections stop at their share, MQTT still connects', async () => {
    // (128 files - 64 reserved) / 4 = 16 HTTP connections.
    const t = await makeDeviceApp({ tuning: { http: { openFileLimit: 128, connectionsPerAddress: 1_000 } } });
    const deviceToken = await tokenOf(t.api, (await t.api.createDevice()).id);
    const { port } = await listen(t.app);
    await holdConnections(t.app, port, 16);

    const refused = connect(port, '127.0.0.1');
    sockets.push(refused);
    refused.on('error', () => undefined);
    expect(await closedWithin(refused, 2_000)).toBe(true);
    const device = await connectDevice(t.app, { username: deviceToken });
    expect(device.connected).toBe(true);
  });

  it('closes the connection of a websocket upgrade that was answered with an error', async () => {
    const t = await makeApp();
    const { base } = await listen(t.app);
    for (const path of ['/api/ws/plugins/telemetry?token=x', '/api/nothing', authRoutes.login.url]) {
      await new Promise<void>((resolve) => {
        const ws = new WebSocket(`${base.replace(/^http/, 'ws')}${path}`);
        ws.on('error', () => undefined);
        ws.on('close', () => resolve());
      });
    }
    await eventually(() => connectionsOf(t.app), (n) => n === 0);
  });
});
