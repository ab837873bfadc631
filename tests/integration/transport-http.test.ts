import { describe, expect, it } from 'vitest';
import { deviceRoutes } from '../../server/contract/device.ts';
import type { ErrorBody } from '../../server/contract/errors.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import type { App } from '../../server/app.ts';
import { EventBus, type Events } from '../../server/lib/event-bus.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { eventually, tokenOf } from '../helpers/mqtt.ts';

/** The app listening on a real loopback port; returns its base URL. */
async function listen(app: App): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

async function httpDevice(options: Parameters<typeof makeDeviceApp>[0] = {}) {
  const t = await makeDeviceApp(options);
  const device = await t.api.createDevice();
  const token = await tokenOf(t.api, device.id);
  const base = await listen(t.app);
  const post = (path: string, body: string, contentType: string | null = 'application/json') =>
    fetch(`${base}/api/v1/${token}${path}`, { method: 'POST', body, headers: contentType ? { 'content-type': contentType } : {} });
  return { ...t, device, token, base, post };
}

function record<K extends keyof Events>(bus: EventBus, event: K): Events[K][] {
  const seen: Events[K][] = [];
  bus.on(event, (payload) => seen.push(payload));
  return seen;
}

describe('HTTP device API', () => {
  it('stores telemetry in each payload format, whatever the content type', async () => {
    const { api, device, post } = await httpDevice();
    expect((await post('/telemetry', JSON.stringify({ temperature: 20 }))).status).toBe(200);
    expect((await post('/telemetry', JSON.stringify({ ts: 1_000, values: { level: 1 } }), 'text/plain')).status).toBe(200);
    const res = await post('/telemetry', JSON.stringify([{ ts: 2_000, values: { level: 2 } }, { ts: 3_000, values: { level: 3 } }]), null);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    const values = await api.ok(telemetryRoutes.timeseries, { params: { id: device.id }, query: { keys: 'level', startTs: 0, orderBy: 'ASC' } });
    expect(values.level?.map((p) => p.value)).toEqual([1, 2, 3]);
    expect((await api.ok(telemetryRoutes.timeseries, { params: { id: device.id } })).temperature?.[0]?.value).toBe(20);
  });

  it('stores client attributes and answers them back', async () => {
    const { api, device, post, base, token } = await httpDevice();
    expect((await post('/attributes', JSON.stringify({ firmware: '2.0', slots: 4 }))).status).toBe(200);
    const attributes = await api.ok(telemetryRoutes.attributes, { params: { id: device.id }, query: { keys: 'slots' } });
    expect(attributes).toEqual([{ key: 'slots', value: 4, lastUpdateTs: expect.any(Number) as number }]);
    const answer = await fetch(`${base}/api/v1/${token}/attributes?clientKeys=firmware`);
    expect(await answer.json()).toEqual({ client: { firmware: '2.0' } });
  });

  it('answers 401 with the error body for an unknown token', async () => {
    const { base } = await httpDevice();
    const res = await fetch(`${base}/api/v1/not-a-token/telemetry`, { method: 'POST', body: '{"a":1}', headers: { 'accept-language': 'en-US' } });
    expect(res.status).toBe(401);
    const body = (await res.json()) as ErrorBody;
    expect(body).toMatchObject({ code: 10, key: 'error.transport.tokenUnknown', message: 'Unknown device access token' });
    expect((await fetch(`${base}/api/v1/not-a-token/rpc?timeout=10`)).status).toBe(401);
  });

  it('refuses what MQTT refuses, with the same reason as the error key', async () => {
    const { app, post } = await httpDevice();
    const cases: [string, string][] = [
      ['{"a": 1', 'error.transport.malformedJson'],
      ['[1]', 'error.transport.payloadShape'],
      ['{"ts": -1, "values": {"a": 1}}', 'error.transport.badTs'],
      ['', 'error.transport.malformedJson'],
    ];
    for (const [body, key] of cases) {
      const res = await post('/telemetry', body);
      expect(res.status, body).toBe(400);
      expect(((await res.json()) as ErrorBody).key).toBe(key);
    }
    const attributes = await post('/attributes', '[{"a": 1}]');
    expect(((await attributes.json()) as ErrorBody).key).toBe('error.transport.payloadShape');
    expect(app.services!.transport!.statsSnapshot().refused['error.transport.malformedJson']).toBe(2);
  });

  it('refuses a body over 64 KB with 413', async () => {
    const { api, device, post } = await httpDevice();
    const res = await post('/telemetry', JSON.stringify({ blob: 'x'.repeat(65 * 1024) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 31, key: 'error.transport.payloadTooLarge' });
    expect(await api.ok(telemetryRoutes.timeseriesKeys, { params: { id: device.id } })).toEqual([]);
  });

  it('hands a server RPC to a waiting long poll, and takes the answer', async () => {
    const bus = new EventBus();
    const answers = record(bus, 'device.rpcResponse');
    const { app, device, post, base, token } = await httpDevice({ bus });
    await post('/telemetry', '{"a":1}');
    const poll = fetch(`${base}/api/v1/${token}/rpc?timeout=5000`);
    // Whether the poll is already waiting or not, the request reaches it.
    expect(app.services!.transport!.sendRpc(device.id, 5, 'getStatus', { verbose: true })).toBe(true);
    const res = await poll;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 5, method: 'getStatus', params: { verbose: true } });
    expect((await post('/rpc/5', JSON.stringify({ status: 'ok' }))).status).toBe(200);
    expect(answers).toEqual([{ deviceId: device.id, requestId: 5, payload: { status: 'ok' } }]);
  });

  it('keeps an RPC sent between polls for the next poll, and answers an empty 408 when none comes', async () => {
    const { app, device, post, base, token } = await httpDevice();
    await post('/telemetry', '{"a":1}');
    expect(app.services!.transport!.sendRpc(device.id, 9, 'reboot', {})).toBe(true);
    const first = await fetch(`${base}/api/v1/${token}/rpc?timeout=1000`);
    expect(await first.json()).toEqual({ id: 9, method: 'reboot', params: {} });
    const empty = await fetch(`${base}/api/v1/${token}/rpc?timeout=50`);
    expect(empty.status).toBe(408);
    expect(await empty.text()).toBe('');
  });

  it('marks the device ONLINE on a call and OFFLINE after the inactivity timeout', async () => {
    const bus = new EventBus();
    const changes = record(bus, 'device.stateChanged');
    const { api, device, post } = await httpDevice({ bus, tuning: { httpInactivityMs: 300 } });
    expect((await api.ok(deviceRoutes.get, { params: { id: device.id } })).deviceState).toBe('INACTIVE');
    await post('/telemetry', '{"a":1}');
    expect((await api.ok(deviceRoutes.get, { params: { id: device.id } })).deviceState).toBe('ONLINE');
    await eventually(() => api.ok(deviceRoutes.get, { params: { id: device.id } }), (d) => d.deviceState === 'OFFLINE');
    expect(changes.map((c) => c.state)).toEqual(['ONLINE', 'OFFLINE']);
    expect(changes[1]!.ts - changes[0]!.ts).toBeGreaterThanOrEqual(300);
  });

  it('keeps a device ONLINE while its long poll is open past the inactivity timeout', async () => {
    const { app, device, base, token } = await httpDevice({ tuning: { httpInactivityMs: 100 } });
    const poll = fetch(`${base}/api/v1/${token}/rpc?timeout=600`);
    await eventually(() => app.services!.transport!.isOnline(device.id), Boolean);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(app.services!.transport!.isOnline(device.id)).toBe(true);
    expect((await poll).status).toBe(408);
    await eventually(() => app.services!.transport!.isOnline(device.id), (online) => !online);
  });
});
