import { describe, expect, it } from 'vitest';
import { deviceRoutes } from '../../server/contract/device.ts';
import type { ErrorBody } from '../../server/contract/errors.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { EventBus } from '../../server/lib/event-bus.ts';
import { callRpc, record, sdkDevice, sdkSubscriptions, type MqttVersion } from '../helpers/client-rpc.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { tokenOf } from '../helpers/mqtt.ts';

/** The limits this gateway applies (server/contract/device-api.ts), with no rate limit: ThingsBoard's nulls. */
const noRateLimits = { messages: null, telemetryMessages: null, telemetryDataPoints: null };
const deviceLimits = { maxPayloadSize: 64 * 1024, maxInflightMessages: 100, rateLimits: noRateLimits };

async function deviceApp(options: Parameters<typeof makeDeviceApp>[0] = {}) {
  const bus = options.bus ?? new EventBus();
  const t = await makeDeviceApp({ ...options, bus });
  const device = await t.api.createDevice();
  const token = await tokenOf(t.api, device.id);
  return { ...t, bus, device, token, transport: t.app.services!.transport! };
}

// Both versions the SDKs use: tb-mqtt-client speaks only 5, older firmware 3.1.1.
const versions: { name: string; protocolVersion: MqttVersion }[] = [
  { name: 'MQTT 3.1.1', protocolVersion: 4 },
  { name: 'MQTT 5', protocolVersion: 5 },
];

describe.each(versions)('client-side RPC over $name', ({ protocolVersion }) => {
  it('keeps the SDK’s connect sequence connected and answers getSessionLimits with the limits it applies', async () => {
    const { api, device, token, app } = await deviceApp();
    const { client, granted } = await sdkDevice(app, token, protocolVersion);
    expect(granted).toEqual(sdkSubscriptions.map(() => 1));
    expect(await callRpc(client, 1, 'getSessionLimits', { timeout: 5000 })).toEqual(deviceLimits);
    // Still connected and served.
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ t: 1 }), { qos: 1 });
    expect(client.connected).toBe(true);
    expect(await api.ok(telemetryRoutes.timeseriesKeys, { params: { id: device.id } })).toEqual(['t']);
  });

  it('answers getCurrentTime with the gateway’s clock', async () => {
    const { token, app } = await deviceApp();
    const { client } = await sdkDevice(app, token, protocolVersion);
    const before = Date.now();
    const answer = (await callRpc(client, 2, 'getCurrentTime', {})) as { time: number };
    expect(Object.keys(answer)).toEqual(['time']);
    expect(answer.time).toBeGreaterThanOrEqual(before);
    expect(answer.time).toBeLessThanOrEqual(Date.now());
  });

  it('announces any other method and relays the answer given through the transport', async () => {
    const { bus, device, token, app, transport } = await deviceApp();
    const calls = record(bus, 'device.clientRpc');
    bus.on('device.clientRpc', ({ deviceId, requestId, params }) => transport.answerClientRpc(deviceId, requestId, { sum: (params as { a: number; b: number }).a + 2 }));
    const { client } = await sdkDevice(app, token, protocolVersion);
    expect(await callRpc(client, 7, 'sumOnServer', { a: 2, b: 2 })).toEqual({ sum: 4 });
    expect(calls).toEqual([{ deviceId: device.id, requestId: expect.any(Number) as number, method: 'sumOnServer', params: { a: 2, b: 2 }, ts: expect.any(Number) as number }]);
    // Answered once: a second answer finds no call waiting.
    expect(transport.answerClientRpc(device.id, calls[0]!.requestId, 'again')).toBe(false);
  });

  it('answers ThingsBoard’s timeout error when nothing answers the call in time', async () => {
    const { bus, device, token, app, transport } = await deviceApp({ tuning: { clientRpcTimeoutMs: 100 } });
    const calls = record(bus, 'device.clientRpc');
    const { client } = await sdkDevice(app, token, protocolVersion);
    expect(await callRpc(client, 3, 'getWeather', null)).toEqual({ error: 'timeout' });
    expect(calls.map((c) => c.method)).toEqual(['getWeather']);
    expect(transport.answerClientRpc(device.id, calls[0]!.requestId, { late: true })).toBe(false);
    expect(client.connected).toBe(true);
  });

  it('refuses a call without a method, counted, and keeps the device connected', async () => {
    const { bus, token, app, transport } = await deviceApp();
    const calls = record(bus, 'device.clientRpc');
    const { client } = await sdkDevice(app, token, protocolVersion);
    for (const body of ['{"params":{}}', '{"method":""}', '"getCurrentTime"', '{"method":5}']) {
      // MQTT 5 says why in the PUBACK (0x99 payload format invalid); 3.1.1 has no negative PUBACK.
      const acked = await client.publishAsync('v1/devices/me/rpc/request/4', body, { qos: 1 }).then(
        () => 0,
        (err: { code?: number }) => err.code,
      );
      expect(acked).toBe(protocolVersion === 5 ? 0x99 : 0);
    }
    expect(client.connected).toBe(true);
    expect(transport.statsSnapshot().refused['error.transport.badRpc']).toBe(4);
    expect(calls).toEqual([]);
    expect(await callRpc(client, 5, 'getSessionLimits', {})).toEqual(deviceLimits);
  });

  it('serves a gateway’s own client RPC, with its gateway limits, apart from its answers to server RPC', async () => {
    const { api, bus, app, transport } = await deviceApp();
    const calls = record(bus, 'device.clientRpc');
    const answers = record(bus, 'device.rpcResponse');
    const gateway = await api.createDevice({ deviceType: 'GATEWAY' });
    const sensor = await api.createDevice({ deviceType: 'SENSOR', gatewayId: gateway.id, name: 'Sensor_RPC' });
    const { client } = await sdkDevice(app, await tokenOf(api, gateway.id), protocolVersion);
    await client.subscribeAsync('v1/gateway/rpc', { qos: 1 });
    expect(await callRpc(client, 1, 'getSessionLimits', { timeout: 5000 })).toEqual({ ...deviceLimits, gatewayRateLimits: noRateLimits });
    bus.on('device.clientRpc', ({ deviceId, requestId }) => transport.answerClientRpc(deviceId, requestId, 'ok'));
    expect(await callRpc(client, 2, 'gatewayStatus', { connectors: 1 })).toBe('ok');
    expect(calls.map((c) => [c.deviceId, c.method])).toEqual([[gateway.id, 'gatewayStatus']]);
    // On v1/gateway/rpc a sub-device's message is an answer to a server RPC, as in ThingsBoard.
    await client.publishAsync('v1/gateway/rpc', JSON.stringify({ device: 'Sensor_RPC', id: 8, data: { done: true } }), { qos: 1 });
    expect(answers).toEqual([{ deviceId: sensor.id, requestId: 8, payload: { done: true } }]);
    expect(calls).toHaveLength(1);
  });
});

/** The app on a real loopback port, and POST as a device with its token. */
async function httpDevice(options: Parameters<typeof makeDeviceApp>[0] = {}) {
  const t = await deviceApp(options);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api/v1/${t.token}`;
  const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { ...t, post };
}

async function stateOf(api: Awaited<ReturnType<typeof httpDevice>>['api'], id: string): Promise<string> {
  return (await api.ok(deviceRoutes.get, { params: { id } })).deviceState;
}

describe('client-side RPC over HTTP', () => {
  it('answers getSessionLimits and getCurrentTime in the response', async () => {
    const { post } = await httpDevice();
    const limits = await post('/rpc', { method: 'getSessionLimits', params: {} });
    expect(limits.status).toBe(200);
    expect(await limits.json()).toEqual(deviceLimits);
    const time = (await (await post('/rpc', { method: 'getCurrentTime', params: {} })).json()) as { time: number };
    expect(time.time).toBeLessThanOrEqual(Date.now());
  });

  it('holds the call until the answer given through the transport, any JSON', async () => {
    const { bus, device, post, transport } = await httpDevice();
    const calls = record(bus, 'device.clientRpc');
    bus.on('device.clientRpc', ({ deviceId, requestId }) => {
      // Answered later, not inside the announcement: the call waits for it.
      setImmediate(() => transport.answerClientRpc(deviceId, requestId, 'open'));
    });
    const res = await post('/rpc', { method: 'doorDecision', params: { card: 42 } });
    expect(res.status).toBe(200);
    expect(await res.json()).toBe('open');
    expect(calls).toEqual([{ deviceId: device.id, requestId: expect.any(Number) as number, method: 'doorDecision', params: { card: 42 }, ts: expect.any(Number) as number }]);
  });

  it('answers an empty 408 when nothing answers in time, as ThingsBoard', async () => {
    const { post } = await httpDevice({ tuning: { clientRpcTimeoutMs: 100 } });
    const res = await post('/rpc', { method: 'getWeather' });
    expect(res.status).toBe(408);
    expect(await res.text()).toBe('');
  });

  it('refuses a call without a method with 400 and the reason', async () => {
    const { post } = await httpDevice();
    const res = await post('/rpc', { params: { a: 1 } });
    expect(res.status).toBe(400);
    expect((await res.json()) as ErrorBody).toMatchObject({ code: 31, key: 'error.transport.badRpc' });
  });
});

describe('HTTP device API with nothing to store', () => {
  it('answers 200 to {} on telemetry and attributes, stores nothing and marks the device ONLINE', async () => {
    const { api, device, post } = await httpDevice();
    expect(await stateOf(api, device.id)).toBe('INACTIVE');
    for (const path of ['/telemetry', '/attributes']) {
      const res = await post(path, {});
      expect(res.status, path).toBe(200);
      expect(await res.json()).toEqual({});
    }
    expect((await post('/telemetry', [])).status).toBe(200);
    expect(await stateOf(api, device.id)).toBe('ONLINE');
    expect(await api.ok(telemetryRoutes.timeseriesKeys, { params: { id: device.id } })).toEqual([]);
    expect(await api.ok(telemetryRoutes.attributes, { params: { id: device.id } })).toEqual([]);
    // What the SDK sends next is stored.
    expect((await post('/telemetry', { ts: 1_000, values: { t: 1 } })).status).toBe(200);
    expect(await api.ok(telemetryRoutes.timeseriesKeys, { params: { id: device.id } })).toEqual(['t']);
  });
});
