/**
 * ThingsBoard's REST calls as its clients make them: the `X-Authorization` header, and server RPC
 * through `/api/rpc/{oneway|twoway}/{deviceId}` (and v1 under `/api/plugins/rpc`) answered by a
 * real MQTT 3.1.1 device.
 */
import { describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { commandRoutes, type Command } from '../../server/contract/command.ts';
import type { Device } from '../../server/contract/device.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { LiveClient, makeLiveApp, type LiveTestApp } from '../helpers/live.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';

/** A 3.1.1 device subscribed to its RPC requests at QoS 1; `answer` decides what it replies (nothing when it returns undefined). */
async function rpcDevice(t: LiveTestApp, target: Device, answer: (method: string, params: unknown) => string | undefined): Promise<MqttClient> {
  const mqtt = await connectDevice(t.app, { username: await tokenOf(t.api, target.id), protocolVersion: 4 });
  mqtt.on('message', (topic, payload) => {
    const match = /^v1\/devices\/me\/rpc\/request\/(\d+)$/.exec(topic);
    if (!match) return;
    const { method, params } = JSON.parse(payload.toString('utf8')) as { method: string; params: unknown };
    const reply = answer(method, params);
    // The test may end (and close the client) before this answer's PUBACK comes back.
    if (reply !== undefined) mqtt.publishAsync(`v1/devices/me/rpc/response/${match[1]}`, reply, { qos: 1 }).catch(() => undefined);
  });
  await mqtt.subscribeAsync('v1/devices/me/rpc/request/+', { qos: 1 });
  await eventually(() => t.app.services!.transport!.isOnline(target.id), Boolean);
  return mqtt;
}

function rpc(t: LiveTestApp, path: string, deviceId: string, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${t.token}` }) {
  return t.app.inject({ method: 'POST', url: `${path}/${deviceId}`, payload: body as object, headers });
}

async function records(t: LiveTestApp, deviceId: string): Promise<Command[]> {
  return (await t.api.ok(commandRoutes.list, { params: { id: deviceId }, query: { pageSize: 100 } })).items;
}

describe('X-Authorization', () => {
  it('is accepted wherever Authorization: Bearer is, and a bad token in it is refused as in Authorization', async () => {
    const t = await makeLiveApp();
    const device = await t.api.createDevice();
    const url = deviceRoutes.get.url.replace(':id', device.id);
    const viaTb = await t.app.inject({ method: 'GET', url, headers: { 'x-authorization': `Bearer ${t.token}` } });
    expect(viaTb.statusCode, viaTb.body).toBe(200);
    expect(viaTb.json()).toMatchObject({ id: device.id });
    const viaStandard = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.token}` } });
    expect(viaStandard.statusCode).toBe(200);
    const bad = await t.app.inject({ method: 'GET', url, headers: { 'x-authorization': `Bearer ${t.token}x` } });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ code: 10, key: 'error.auth.tokenInvalid' });
  });

  it('authenticates a websocket upgrade that carries it', async () => {
    const t = await makeLiveApp({ listen: true });
    const ws = await LiveClient.open(t, { headers: { 'x-authorization': `Bearer ${t.token}` } });
    ws.send({ cmds: [{ type: 'ENTITY_COUNT', cmdId: 1, query: { entityFilter: { type: 'entityType', entityType: 'DEVICE' } } }] });
    expect(await ws.answer(1)).toMatchObject({ errorCode: 0, count: 0 });
  });
});

describe('RPC REST calls', () => {
  it('answers a two-way call with the device’s reply and records it as an API command, sent with X-Authorization', async () => {
    const t = await makeLiveApp();
    const device = await t.api.createDevice();
    await rpcDevice(t, device, (method, params) => JSON.stringify({ method, echo: params }));
    const res = await rpc(t, '/api/rpc/twoway', device.id, { method: 'getTemperature', params: { unit: 'C' } }, { 'x-authorization': `Bearer ${t.token}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ method: 'getTemperature', echo: { unit: 'C' } });
    const [record] = await records(t, device.id);
    expect(record).toMatchObject({ commandType: 'API', callType: 'SYNC', way: 'twoway', status: 'SUCCESSFUL', responseType: 'JSON' });
    expect(JSON.parse(record!.content)).toEqual({ method: 'getTemperature', params: { unit: 'C' } });
  });

  it('answers a one-way call 200 with an empty body once sent, and the record ends SUCCESSFUL when the device acknowledges it', async () => {
    const t = await makeLiveApp();
    const device = await t.api.createDevice();
    const seen: string[] = [];
    await rpcDevice(t, device, (method) => {
      seen.push(method);
      return undefined;
    });
    const res = await rpc(t, '/api/rpc/oneway', device.id, { method: 'setGpio', params: { pin: 23, value: 1 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('');
    await eventually(() => seen, (s) => s.length === 1);
    expect(seen).toEqual(['setGpio']);
    const done = await eventually(() => records(t, device.id), (r) => r[0]?.status === 'SUCCESSFUL');
    expect(done[0]).toMatchObject({ commandType: 'API', way: 'oneway' });
  });

  it('answers 504 when the device does not answer within the timeout (v2), 408 under the v1 path, and records TIMEOUT', async () => {
    const t = await makeLiveApp();
    const device = await t.api.createDevice();
    await rpcDevice(t, device, () => undefined);
    const v2 = await rpc(t, '/api/rpc/twoway', device.id, { method: 'slow', timeout: 1000 });
    expect(v2.statusCode).toBe(504);
    expect(v2.json()).toMatchObject({ key: 'error.rpc.timeout' });
    const v1 = await rpc(t, '/api/plugins/rpc/twoway', device.id, { method: 'slow', timeout: 1000 });
    expect(v1.statusCode).toBe(408);
    expect((await records(t, device.id)).map((c) => c.status)).toEqual(['TIMEOUT', 'TIMEOUT']);
  });

  it('refuses a call to an offline device with 504 (v2) or 409 (v1), unless persistent, which is queued and answered with its rpcId', async () => {
    const t = await makeLiveApp();
    const device = await t.api.createDevice();
    const v2 = await rpc(t, '/api/rpc/twoway', device.id, { method: 'reboot' });
    expect(v2.statusCode).toBe(504);
    expect(v2.json()).toMatchObject({ key: 'error.rpc.deviceOffline' });
    const v1 = await rpc(t, '/api/plugins/rpc/oneway', device.id, { method: 'reboot' });
    expect(v1.statusCode).toBe(409);
    expect(v1.json()).toMatchObject({ code: 35, key: 'error.rpc.deviceOffline' });
    const persistent = await rpc(t, '/api/rpc/oneway', device.id, { method: 'reboot', persistent: true, retries: 2, additionalInfo: { by: 'script' } });
    expect(persistent.statusCode, persistent.body).toBe(200);
    const { rpcId } = persistent.json<{ rpcId: string }>();
    const queued = await records(t, device.id);
    expect(queued).toEqual([expect.objectContaining({ id: rpcId, commandType: 'API', callType: 'ASYNC', status: 'QUEUED' })]);
  });

  it('refuses a body without a method, an unknown device and a call without a token', async () => {
    const t = await makeLiveApp();
    const device = await t.api.createDevice();
    const noMethod = await rpc(t, '/api/rpc/twoway', device.id, { params: {} });
    expect(noMethod.statusCode).toBe(400);
    expect(noMethod.json()).toMatchObject({ code: 31 });
    const unknown = await rpc(t, '/api/rpc/twoway', '00000000-0000-4000-8000-000000000000', { method: 'x' });
    expect(unknown.statusCode).toBe(404);
    const anonymous = await rpc(t, '/api/rpc/twoway', device.id, { method: 'x' }, {});
    expect(anonymous.statusCode).toBe(401);
  });
});
