import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { App } from '../../server/app.ts';
import { authRoutes } from '../../server/contract/auth.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { consoleFiles, makeApp } from '../helpers/app.ts';
import { capturedLog } from '../helpers/captured-log.ts';
import { DeviceApi } from '../helpers/devices.ts';
import { LiveClient } from '../helpers/live.ts';
import { tokenOf } from '../helpers/mqtt.ts';
import { signIn } from '../helpers/session.ts';
import { makeProvisionedApp, setupCodeOf } from '../helpers/setup.ts';

async function listen(app: App): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

/** Opens a websocket to `url` and resolves once the server has closed or refused it. */
function refusedUpgrade(url: string): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.on('error', () => undefined);
    ws.on('close', () => resolve());
  });
}

describe('log redaction', () => {
  it('writes no password, setup code, user token or device token to the log, whatever the request', async () => {
    const log = capturedLog('trace');
    const t = await makeProvisionedApp({ logger: log.logger, assets: consoleFiles() });
    const setupCode = setupCodeOf(t);
    const pair = await signIn(t.app, t.admin.username, t.admin.password);
    const renewed = await t.app.inject({ method: 'POST', url: authRoutes.token.url, payload: { refreshToken: pair.refreshToken } });
    expect(renewed.statusCode).toBe(200);
    const api = new DeviceApi(t.app, pair.token);
    const device = await api.createDevice();
    const deviceToken = await tokenOf(api, device.id);
    await api.ok(deviceRoutes.list, { query: { textSearch: 'x' } });
    const base = await listen(t.app);

    // Device HTTP traffic: accepted, refused, unknown path, long poll that times out.
    expect((await fetch(`${base}/api/v1/${deviceToken}/telemetry`, { method: 'POST', body: '{"t":1}' })).status).toBe(200);
    expect((await fetch(`${base}/api/v1/${deviceToken}/telemetry`, { method: 'POST', body: 'not json' })).status).toBe(400);
    expect((await fetch(`${base}/api/v1/${deviceToken}/nothing-here`)).status).toBe(404);
    expect((await fetch(`${base}/api/v1/${deviceToken}/rpc?timeout=10`)).status).toBe(408);
    // A console call with the token in the query, where no route takes one.
    expect((await fetch(`${base}/api/yt/device?token=${pair.token}`)).status).toBe(401);
    // The live websocket with its token in the query, and an upgrade on a path without a handler.
    const ws = await LiveClient.open({ baseUrl: base }, { token: pair.token });
    ws.socket.close();
    await refusedUpgrade(`${base.replace(/^http/, 'ws')}/api/ws/no-such-path?token=${encodeURIComponent(pair.token)}`);
    await t.app.close();

    const text = log.text();
    expect(text).toContain('/api/ws/no-such-path');
    const renewedPair = renewed.json<{ token: string; refreshToken: string }>();
    const secrets = {
      password: t.admin.password,
      setupCode,
      accessToken: pair.token,
      refreshToken: pair.refreshToken,
      renewedAccessToken: renewedPair.token,
      renewedRefreshToken: renewedPair.refreshToken,
      deviceToken,
    };
    expect(Object.keys(secrets).filter((name) => text.includes(secrets[name as keyof typeof secrets]))).toEqual([]);
  });
});

describe('request log levels', () => {
  it('writes no line per request at the default level, only at debug', async () => {
    for (const level of ['info', 'debug'] as const) {
      const log = capturedLog(level);
      // A loaded machine can make signing in a 'slow request' warning; that rule is the next test's.
      const t = await makeProvisionedApp({ logger: log.logger, tuning: { http: { slowRequestMs: 600_000 } } });
      await signIn(t.app, t.admin.username, t.admin.password);
      expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
      expect((await t.app.inject({ url: '/api/no-such-thing' })).statusCode).toBe(404);
      const requestLines = log.lines().filter((l) => l.req !== undefined);
      if (level === 'info') expect(requestLines).toEqual([]);
      else {
        expect(requestLines.map((l) => [l.level, l.msg, (l.req as { url: string }).url, (l.res as { statusCode: number }).statusCode])).toEqual([
          [20, 'request completed', '/api/license/uploading', 200],
          [20, 'request completed', '/api/yt/setup/admin', 200],
          [20, 'request completed', '/api/auth/login', 200],
          [20, 'request completed', '/api/health', 200],
          [20, 'request completed', '/api/no-such-thing', 404],
        ]);
        expect(requestLines.every((l) => typeof l.responseTime === 'number')).toBe(true);
      }
    }
  });

  it('logs a slow request and a failed one as warnings, but not a long poll that waits', async () => {
    const log = capturedLog('info');
    // Signing in hashes a password (tens of milliseconds at least): slow against a 5 ms threshold.
    const t = await makeProvisionedApp({ logger: log.logger, tuning: { http: { slowRequestMs: 5 } } });
    const api = new DeviceApi(t.app, (await signIn(t.app, t.admin.username, t.admin.password)).token);
    const deviceToken = await tokenOf(api, (await api.createDevice()).id);
    const poll = await t.app.inject({ url: `/api/v1/${deviceToken}/rpc?timeout=50` });
    expect(poll.statusCode).toBe(408);
    const warnings = log.lines().filter((l) => l.level === 40);
    expect(warnings.some((l) => l.msg === 'slow request' && (l.req as { url: string }).url === authRoutes.login.url)).toBe(true);
    expect(warnings.filter((l) => (l.req as { url: string } | undefined)?.url.includes('/rpc'))).toEqual([]);

    // ThingsBoard's 504 for an RPC to an offline device is normal operation: one info line, no stack, no warning.
    const offline = await api.createDevice();
    const rpc = await t.app.inject({ method: 'POST', url: `/api/rpc/oneway/${offline.id}`, headers: { authorization: `Bearer ${api.token!}` }, payload: { method: 'ping', params: {} } });
    expect(rpc.statusCode).toBe(504);
    // (A 'slow request' warning may come: this app's threshold is 5 ms. It is about time, not the 504.)
    const rpcWarnings = log.lines().filter((l) => (l.level as number) >= 40 && l.msg !== 'slow request' && JSON.stringify(l).includes(offline.id));
    expect(rpcWarnings).toEqual([]);
    expect(log.lines()).toContainEqual(expect.objectContaining({ level: 30, msg: 'request refused with a server status', key: 'error.rpc.deviceOffline', status: 504 }));
    expect(log.lines().filter((l) => l.msg === 'request refused with a server status' && 'err' in l)).toEqual([]);

    // A proxy whose upstream is down answers 502.
    const proxyLog = capturedLog('info');
    const proxy = await makeApp({ logger: proxyLog.logger, upstream: 'http://127.0.0.1:9' });
    expect((await proxy.app.inject({ url: '/api/yt/device' })).statusCode).toBe(502);
    const requestLines = proxyLog.lines().filter((l) => l.reqId !== undefined);
    expect(requestLines.filter((l) => (l.level as number) < 40)).toEqual([]);
    expect(requestLines).toContainEqual(expect.objectContaining({ level: 40, msg: 'request answered with a server error', res: { statusCode: 502 } }));
  });
});
