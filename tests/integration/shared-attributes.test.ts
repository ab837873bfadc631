/**
 * Shared attributes as ThingsBoard serves them: set and read through its REST paths, pushed to
 * devices (MQTT, a sub-device's gateway, the HTTP long poll) and to websocket subscribers, and
 * answered to attribute requests (a device's and a gateway's). Paths are written out literally:
 * they are ThingsBoard's, which clients call as they are.
 */
import { describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import type { App } from '../../server/app.ts';
import type { EntityDataUpdate, TelemetryUpdate } from '../../server/contract/realtime.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { LiveClient, makeLiveApp } from '../helpers/live.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';

const base = '/api/plugins/telemetry';

/** A REST call as a signed-in user, with a JSON body when given. */
function rest(app: App, token: string, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
  return app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(body !== undefined ? { payload: body as object } : {}) });
}

async function publishJson(client: MqttClient, topic: string, body: unknown): Promise<void> {
  await client.publishAsync(topic, JSON.stringify(body), { qos: 1 });
}

/** The next message `client` receives on `topic`, parsed. */
function nextOn(client: MqttClient, topic: string): Promise<unknown> {
  return new Promise((resolve) => {
    const onMessage = (t: string, payload: Buffer): void => {
      if (t !== topic) return;
      client.off('message', onMessage);
      resolve(JSON.parse(payload.toString('utf8')));
    };
    client.on('message', onMessage);
  });
}

async function deviceApp() {
  const t = await makeDeviceApp();
  const device = await t.api.createDevice();
  const token = t.api.token!;
  const save = (body: unknown, path = `${base}/DEVICE/${device.id}/attributes/SHARED_SCOPE`) => rest(t.app, token, 'POST', path, body);
  const get = async (path: string) => (await rest(t.app, token, 'GET', path)).json() as unknown;
  return { ...t, device, token, save, get };
}

describe('shared attributes over ThingsBoard’s REST paths', () => {
  it('sets them through each of ThingsBoard’s POST paths, answering 200 with an empty body, and reads them back by scope', async () => {
    const { app, api, device, token, save, get } = await deviceApp();
    const first = await save({ interval: 10, mode: 'eco' });
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe('');
    expect((await save({ config: { a: [1, 2] } }, `${base}/DEVICE/${device.id}/SHARED_SCOPE`)).statusCode).toBe(200);
    expect((await save({ enabled: true, interval: 20 }, `${base}/${device.id}/SHARED_SCOPE`)).statusCode).toBe(200);
    const shared = (await get(`${base}/DEVICE/${device.id}/values/attributes/SHARED_SCOPE`)) as { key: string; value: unknown; lastUpdateTs: number }[];
    expect(shared.map(({ key, value }) => [key, value])).toEqual([
      ['config', { a: [1, 2] }],
      ['enabled', true],
      ['interval', 20],
      ['mode', 'eco'],
    ]);
    expect(shared.every((a) => typeof a.lastUpdateTs === 'number' && a.lastUpdateTs > 0)).toBe(true);
    expect(await get(`${base}/DEVICE/${device.id}/values/attributes/SHARED_SCOPE?keys=mode`)).toEqual([
      { key: 'mode', value: 'eco', lastUpdateTs: expect.any(Number) as number },
    ]);
    expect(await get(`${base}/DEVICE/${device.id}/keys/attributes/SHARED_SCOPE`)).toEqual(['config', 'enabled', 'interval', 'mode']);
    // The unscoped read answers every stored scope: the device's own attributes, then shared.
    const deviceToken = await tokenOf(api, device.id);
    expect((await app.inject({ method: 'POST', url: `/api/v1/${deviceToken}/attributes`, payload: { firmware: '1.0' } })).statusCode).toBe(200);
    expect(((await get(`${base}/DEVICE/${device.id}/values/attributes?keys=firmware,mode`)) as { key: string }[]).map((a) => a.key)).toEqual([
      'firmware',
      'mode',
    ]);
    expect(await get(`${base}/DEVICE/${device.id}/keys/attributes`)).toEqual(['firmware', 'config', 'enabled', 'interval', 'mode']);
    expect(await get(`${base}/DEVICE/${device.id}/values/attributes/CLIENT_SCOPE`)).toEqual([
      { key: 'firmware', value: '1.0', lastUpdateTs: expect.any(Number) as number },
    ]);
    expect((await rest(app, token, 'GET', `${base}/DEVICE/${device.id}/values/attributes/SHARED_SCOPE`)).statusCode).toBe(200);
  });

  it('deletes the keys named, on both DELETE paths, and refuses a delete naming none', async () => {
    const { app, device, token, save, get } = await deviceApp();
    await save({ a: 1, b: 2, c: 3, d: 4 });
    const deleted = await rest(app, token, 'DELETE', `${base}/DEVICE/${device.id}/SHARED_SCOPE?keys=a,b,unknown`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.body).toBe('');
    expect((await rest(app, token, 'DELETE', `${base}/${device.id}/SHARED_SCOPE?keys=c`)).statusCode).toBe(200);
    expect(await get(`${base}/DEVICE/${device.id}/keys/attributes/SHARED_SCOPE`)).toEqual(['d']);
    const none = await rest(app, token, 'DELETE', `${base}/DEVICE/${device.id}/SHARED_SCOPE`);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ code: 31, key: 'error.telemetry.keysRequired' });
  });

  it('refuses what a device could not take, another scope, an unknown device and a caller not signed in', async () => {
    const { app, device, token, save } = await deviceApp();
    const refusals: [unknown, string][] = [
      [{ a: null }, 'error.transport.nullValue'],
      [{}, 'error.transport.empty'],
      [{ ['x'.repeat(256)]: 1 }, 'error.transport.badKey'],
    ];
    for (const [body, key] of refusals) {
      const res = await save(body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 31, key });
    }
    const array = await rest(app, token, 'POST', `${base}/DEVICE/${device.id}/attributes/SHARED_SCOPE`, [1, 2]);
    expect(array.statusCode).toBe(400);
    expect((await save({ big: 'x'.repeat(70_000) })).statusCode).toBe(413);
    expect((await save({ a: 1 }, `${base}/DEVICE/${device.id}/attributes/SERVER_SCOPE`)).json()).toMatchObject({ code: 31 });
    expect((await save({ a: 1 }, `${base}/DEVICE/${device.id}/attributes/CLIENT_SCOPE`)).statusCode).toBe(400);
    const unknown = await save({ a: 1 }, `${base}/DEVICE/no-such-device/attributes/SHARED_SCOPE`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 32 });
    const anonymous = await app.inject({ method: 'POST', url: `${base}/DEVICE/${device.id}/attributes/SHARED_SCOPE`, payload: { a: 1 } });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('shared attributes reach MQTT devices', () => {
  it('pushes only the changed keys on v1/devices/me/attributes, and a delete as { deleted: [keys] }', async () => {
    const { app, api, device, save, token } = await deviceApp();
    await save({ interval: 10, mode: 'eco' });
    const client = await connectDevice(app, { username: await tokenOf(api, device.id) });
    await client.subscribeAsync('v1/devices/me/attributes', { qos: 1 });
    const changed = nextOn(client, 'v1/devices/me/attributes');
    await save({ interval: 30 });
    expect(await changed).toEqual({ interval: 30 });
    const removed = nextOn(client, 'v1/devices/me/attributes');
    await rest(app, token, 'DELETE', `${base}/DEVICE/${device.id}/SHARED_SCOPE?keys=mode`);
    expect(await removed).toEqual({ deleted: ['mode'] });
  });

  it('answers attribute requests with client and shared attributes, filtered by clientKeys and sharedKeys as ThingsBoard does', async () => {
    const { app, api, device, save } = await deviceApp();
    await save({ interval: 10, mode: 'eco' });
    const client = await connectDevice(app, { username: await tokenOf(api, device.id) });
    await publishJson(client, 'v1/devices/me/attributes', { firmware: '1.1', serial: 'A1' });
    await client.subscribeAsync('v1/devices/me/attributes/response/+', { qos: 1 });
    const ask = async (id: number, body: unknown) => {
      const answer = nextOn(client, `v1/devices/me/attributes/response/${id}`);
      await publishJson(client, `v1/devices/me/attributes/request/${id}`, body);
      return answer;
    };
    expect(await ask(1, {})).toEqual({ client: { firmware: '1.1', serial: 'A1' }, shared: { interval: 10, mode: 'eco' } });
    expect(await ask(2, { sharedKeys: 'mode' })).toEqual({ shared: { mode: 'eco' } });
    expect(await ask(3, { clientKeys: 'serial' })).toEqual({ client: { serial: 'A1' } });
    expect(await ask(4, { clientKeys: 'firmware', sharedKeys: 'interval,mode' })).toEqual({ client: { firmware: '1.1' }, shared: { interval: 10, mode: 'eco' } });
    expect(await ask(5, { sharedKeys: 'nothing' })).toEqual({});
  });
});

/** A GATEWAY with one SENSOR attached, connected over MQTT. */
async function gatewayApp() {
  const t = await deviceApp();
  const gateway = await t.api.createDevice({ deviceType: 'GATEWAY', name: 'Gateway_S' });
  const sensorProduct = await t.api.createProduct({ deviceType: 'SENSOR' });
  const sensor = await t.api.createDevice({ deviceType: 'SENSOR', deviceProfileId: sensorProduct.id, gatewayId: gateway.id, name: 'Sensor_S' });
  const client = await connectDevice(t.app, { username: await tokenOf(t.api, gateway.id) });
  const saveFor = (body: unknown) => t.save(body, `${base}/DEVICE/${sensor.id}/attributes/SHARED_SCOPE`);
  return { ...t, gateway, sensor, client, saveFor };
}

describe('shared attributes through a gateway', () => {
  it('pushes a connected sub-device’s changes to its gateway as { device, data } on v1/gateway/attributes', async () => {
    const { app, token, sensor, client, saveFor } = await gatewayApp();
    await client.subscribeAsync('v1/gateway/attributes', { qos: 1 });
    await publishJson(client, 'v1/gateway/connect', { device: 'Sensor_S' });
    const changed = nextOn(client, 'v1/gateway/attributes');
    await saveFor({ setpoint: 21.5 });
    expect(await changed).toEqual({ device: 'Sensor_S', data: { setpoint: 21.5 } });
    const removed = nextOn(client, 'v1/gateway/attributes');
    await rest(app, token, 'DELETE', `${base}/DEVICE/${sensor.id}/SHARED_SCOPE?keys=setpoint`);
    expect(await removed).toEqual({ device: 'Sensor_S', data: { deleted: ['setpoint'] } });
  });

  it('answers v1/gateway/attributes/request on v1/gateway/attributes/response as ThingsBoard does, and keeps the connection', async () => {
    const { client, saveFor } = await gatewayApp();
    await saveFor({ setpoint: 21.5, unit: 'C' });
    await publishJson(client, 'v1/gateway/attributes', { Sensor_S: { model: 'T-100' } });
    await client.subscribeAsync('v1/gateway/attributes/response', { qos: 1 });
    const ask = async (body: unknown) => {
      const answer = nextOn(client, 'v1/gateway/attributes/response');
      await publishJson(client, 'v1/gateway/attributes/request', body);
      return answer;
    };
    expect(await ask({ id: 1, device: 'Sensor_S', client: false, key: 'setpoint' })).toEqual({ id: 1, device: 'Sensor_S', value: 21.5 });
    // The way the IoT Gateway's client asks: always `keys`.
    expect(await ask({ id: 2, device: 'Sensor_S', client: false, keys: ['setpoint', 'unit'] })).toEqual({
      id: 2,
      device: 'Sensor_S',
      values: { setpoint: 21.5, unit: 'C' },
    });
    expect(await ask({ id: 3, device: 'Sensor_S', client: true, keys: ['model'] })).toEqual({ id: 3, device: 'Sensor_S', value: 'T-100' });
    expect(await ask({ id: 4, device: 'Sensor_S', client: false, keys: ['missing'] })).toEqual({ id: 4, device: 'Sensor_S' });
    expect(client.connected).toBe(true);
  });

  it('refuses a request for a device that is not its sub-device, and goes on serving the connection', async () => {
    const { app, client, saveFor } = await gatewayApp();
    await saveFor({ unit: 'C' });
    await client.subscribeAsync('v1/gateway/attributes/response', { qos: 1 });
    await publishJson(client, 'v1/gateway/attributes/request', { id: 1, device: 'Nobody', client: false, keys: ['unit'] });
    expect(app.services!.transport!.statsSnapshot().refused['error.transport.gatewayUnknownDevice']).toBe(1);
    const answer = nextOn(client, 'v1/gateway/attributes/response');
    await publishJson(client, 'v1/gateway/attributes/request', { id: 2, device: 'Sensor_S', client: false, keys: ['unit'] });
    expect(await answer).toEqual({ id: 2, device: 'Sensor_S', value: 'C' });
  });
});

describe('shared attributes for HTTP devices', () => {
  async function httpDevice() {
    const t = await deviceApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api/v1/${await tokenOf(t.api, t.device.id)}`;
    return { ...t, url };
  }

  it('answers GET /attributes with shared attributes, filtered by clientKeys and sharedKeys', async () => {
    const { url, save } = await httpDevice();
    await save({ interval: 10, mode: 'eco' });
    await fetch(`${url}/attributes`, { method: 'POST', body: '{"firmware":"2.0"}' });
    expect(await (await fetch(`${url}/attributes`)).json()).toEqual({ client: { firmware: '2.0' }, shared: { interval: 10, mode: 'eco' } });
    expect(await (await fetch(`${url}/attributes?sharedKeys=mode`)).json()).toEqual({ shared: { mode: 'eco' } });
    expect(await (await fetch(`${url}/attributes?clientKeys=firmware`)).json()).toEqual({ client: { firmware: '2.0' } });
  });

  it('answers the long poll /attributes/updates with the next change, and 408 with an empty body when none comes', async () => {
    const { app, device, url, save } = await httpDevice();
    const poll = fetch(`${url}/attributes/updates?timeout=20000`);
    // The device counts as active from the moment its poll waits.
    await eventually(() => app.services!.transport!.isOnline(device.id), Boolean);
    await save({ mode: 'boost' });
    const answer = await poll;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ mode: 'boost' });
    const none = await fetch(`${url}/attributes/updates?timeout=50`);
    expect(none.status).toBe(408);
    expect(await none.text()).toBe('');
  });
});

describe('attribute changes on the live websocket', () => {
  it('pushes client and shared attribute changes to ATTRIBUTES subscriptions, by scope, in ThingsBoard’s shape', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({
      cmds: [
        { type: 'ATTRIBUTES', cmdId: 1, entityType: 'DEVICE', entityId: device.id },
        { type: 'ATTRIBUTES', cmdId: 2, entityType: 'DEVICE', entityId: device.id, scope: 'SHARED_SCOPE' },
      ],
    });
    await ws.answer(1);
    await ws.answer(2);
    const mqtt = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
    await publishJson(mqtt, 'v1/devices/me/attributes', { firmware: '3.0' });
    const client = await ws.next<TelemetryUpdate>((m) => m.cmdId === 1 && JSON.stringify(m.data).includes('firmware'));
    expect(client.data).toEqual({ firmware: [[expect.any(Number), '3.0']] });
    await rest(t.app, t.token, 'POST', `${base}/DEVICE/${device.id}/attributes/SHARED_SCOPE`, { mode: 'eco' });
    const sharedAll = await ws.next<TelemetryUpdate>((m) => m.cmdId === 1 && JSON.stringify(m.data).includes('mode'));
    expect(sharedAll.data).toEqual({ mode: [[expect.any(Number), 'eco']] });
    const sharedOnly = await ws.next<TelemetryUpdate>((m) => m.cmdId === 2);
    expect(sharedOnly.data).toEqual({ mode: [[expect.any(Number), 'eco']] });
    await rest(t.app, t.token, 'DELETE', `${base}/DEVICE/${device.id}/SHARED_SCOPE?keys=mode`);
    // A deleted attribute comes as ThingsBoard sends it: "" at ts 0.
    expect((await ws.next<TelemetryUpdate>((m) => m.cmdId === 2)).data).toEqual({ mode: [[0, '']] });
  });

  it('pushes attribute changes to ENTITY_DATA subscriptions that follow those keys', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({
      cmds: [
        {
          type: 'ENTITY_DATA',
          cmdId: 1,
          query: {
            entityFilter: { type: 'singleEntity', singleEntity: { entityType: 'DEVICE', id: device.id } },
            latestValues: [
              { type: 'CLIENT_ATTRIBUTE', key: 'firmware' },
              { type: 'SHARED_ATTRIBUTE', key: 'mode' },
              { type: 'ATTRIBUTE', key: 'mode' },
            ],
          },
        },
      ],
    });
    await ws.answer<EntityDataUpdate>(1);
    await rest(t.app, t.token, 'POST', `${base}/DEVICE/${device.id}/attributes/SHARED_SCOPE`, { mode: 'eco' });
    const shared = await ws.next<EntityDataUpdate>((m) => m.cmdId === 1 && JSON.stringify(m.update ?? null).includes('mode'));
    expect(shared.update?.[0]?.latest).toEqual({
      SHARED_ATTRIBUTE: { mode: { ts: expect.any(Number) as number, value: 'eco' } },
      ATTRIBUTE: { mode: { ts: expect.any(Number) as number, value: 'eco' } },
    });
    const mqtt = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
    await publishJson(mqtt, 'v1/devices/me/attributes', { firmware: '3.0' });
    const client = await ws.next<EntityDataUpdate>((m) => m.cmdId === 1 && JSON.stringify(m.update ?? null).includes('firmware'));
    expect(client.update?.[0]?.latest).toEqual({ CLIENT_ATTRIBUTE: { firmware: { ts: expect.any(Number) as number, value: '3.0' } } });
    // A new subscription starts from the stored values of both scopes.
    ws.send({
      cmds: [
        {
          type: 'ENTITY_DATA',
          cmdId: 2,
          query: {
            entityFilter: { type: 'singleEntity', singleEntity: { entityType: 'DEVICE', id: device.id } },
            latestValues: [{ type: 'SHARED_ATTRIBUTE', key: 'mode' }],
          },
        },
      ],
    });
    expect((await ws.answer<EntityDataUpdate>(2)).data?.data[0]?.latest.SHARED_ATTRIBUTE).toEqual({ mode: { ts: expect.any(Number) as number, value: 'eco' } });
  });
});
