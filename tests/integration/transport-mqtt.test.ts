import { describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { credentialsRoutes } from '../../server/contract/credentials.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { telemetryRoutes, type TimeseriesValues } from '../../server/contract/telemetry.ts';
import { EventBus, type Events } from '../../server/lib/event-bus.ts';
import { makeDeviceApp, type DeviceApi } from '../helpers/devices.ts';
import { closedBy, connectDevice, connectRefused, eventually, tokenOf } from '../helpers/mqtt.ts';

function latest(api: DeviceApi, id: string, keys?: string): Promise<TimeseriesValues> {
  return api.ok(telemetryRoutes.timeseries, { params: { id }, query: { keys } });
}

function history(api: DeviceApi, id: string, keys: string, startTs = 0): Promise<TimeseriesValues> {
  return api.ok(telemetryRoutes.timeseries, { params: { id }, query: { keys, startTs, endTs: Date.now() + 60_000, orderBy: 'ASC', limit: 1000 } });
}

/** Collects every payload of `event` emitted on `bus`. */
function record<K extends keyof Events>(bus: EventBus, event: K): Events[K][] {
  const seen: Events[K][] = [];
  bus.on(event, (payload) => seen.push(payload));
  return seen;
}

/** A provisioned app with one MQTT device connected by its access token. */
async function connectedDevice(bus?: EventBus) {
  const t = await makeDeviceApp(bus ? { bus } : {});
  const device = await t.api.createDevice();
  const token = await tokenOf(t.api, device.id);
  const client = await connectDevice(t.app, { username: token, clientId: `c-${device.id}` });
  return { ...t, device, token, client };
}

async function publishJson(client: MqttClient, topic: string, body: unknown): Promise<void> {
  await client.publishAsync(topic, JSON.stringify(body), { qos: 1 });
}

describe('MQTT authentication', () => {
  it('accepts a device whose user name is its access token, with an empty password', async () => {
    const { app, api } = await makeDeviceApp();
    const device = await api.createDevice();
    const client = await connectDevice(app, { username: await tokenOf(api, device.id), password: '' });
    expect(client.connected).toBe(true);
  });

  it('refuses an unknown token, a missing user name and a deleted device with CONNACK 5 (not authorized)', async () => {
    const { app, api } = await makeDeviceApp();
    const device = await api.createDevice();
    const token = await tokenOf(api, device.id);
    expect((await connectRefused(app, { username: 'no-such-token' })).code).toBe(5);
    expect((await connectRefused(app, {})).code).toBe(5);
    await api.ok(deviceRoutes.delete, { body: { ids: [device.id] } });
    expect((await connectRefused(app, { username: token })).code).toBe(5);
    expect(app.services!.transport!.statsSnapshot().refused.authentication).toBe(3);
  });

  it('accepts MQTT basic credentials by client ID, user name and password, and refuses a wrong password', async () => {
    const { app, api } = await makeDeviceApp();
    const device = await api.createDevice();
    await api.ok(credentialsRoutes.update, {
      params: { id: device.id },
      body: { credentialsType: 'MQTT_BASIC', credentialsValue: JSON.stringify({ clientId: 'meter-7', userName: 'meter', password: 'S3cret!' }) },
    });
    const client = await connectDevice(app, { clientId: 'meter-7', username: 'meter', password: 'S3cret!' });
    await publishJson(client, 'v1/devices/me/telemetry', { kwh: 12 });
    expect((await latest(api, device.id)).kwh?.[0]?.value).toBe(12);
    expect((await connectRefused(app, { clientId: 'meter-7', username: 'meter', password: 'wrong' })).code).toBe(5);
    expect((await connectRefused(app, { clientId: 'meter-8', username: 'meter', password: 'S3cret!' })).code).toBe(5);
  });

  it('disconnects a device whose credentials change, and the old token stops working', async () => {
    const { app, api, device, token, client } = await connectedDevice();
    const closed = closedBy(client);
    await api.ok(credentialsRoutes.regenerate, { params: { id: device.id } });
    await closed;
    expect((await connectRefused(app, { username: token })).code).toBe(5);
    const fresh = await connectDevice(app, { username: await tokenOf(api, device.id) });
    expect(fresh.connected).toBe(true);
  });

  it('disconnects a device when it is deleted', async () => {
    const { api, device, client } = await connectedDevice();
    const closed = closedBy(client);
    await api.ok(deviceRoutes.delete, { body: { ids: [device.id] } });
    await closed;
  });
});

describe('MQTT topic authorization', () => {
  it('closes the connection of a device publishing outside its own topics, storing nothing', async () => {
    for (const topic of ['v1/devices/other/telemetry', 'v1/gateway/telemetry', 'some/topic', 'v1/devices/me/rpc/response/abc']) {
      const { api, device, client } = await connectedDevice();
      const closed = closedBy(client);
      client.publish(topic, JSON.stringify({ leaked: 1 }), { qos: 0 });
      await closed;
      expect(await api.ok(telemetryRoutes.timeseriesKeys, { params: { id: device.id } })).toEqual([]);
    }
  });

  it('grants the RPC and attribute subscriptions and refuses any other (SUBACK 0x80)', async () => {
    const { client } = await connectedDevice();
    const granted = await client.subscribeAsync(['v1/devices/me/rpc/request/+', 'v1/devices/me/attributes', 'v1/devices/me/attributes/response/+']);
    expect(granted.map((g) => g.qos)).toEqual([0, 0, 0]);
    const refused = await client.subscribeAsync(['v1/devices/me/telemetry', '#', 'v1/gateway/rpc', '$SYS/#'], { qos: 1 }).then(
      () => { throw new Error('the subscriptions were granted'); },
      (err: { packet: { granted: number[] } }) => err.packet.granted,
    );
    expect(refused).toEqual([128, 128, 128, 128]);
    expect(client.connected).toBe(true);
  });

  it('never forwards one device’s publish to another device subscribed to the same topic', async () => {
    const { app, api, client: publisher } = await connectedDevice();
    const other = await api.createDevice();
    const listener = await connectDevice(app, { username: await tokenOf(api, other.id) });
    const received: string[] = [];
    listener.on('message', (topic) => received.push(topic));
    await listener.subscribeAsync('v1/devices/me/attributes', { qos: 1 });
    await publishJson(publisher, 'v1/devices/me/attributes', { firmware: '1.0' });
    // A round trip on the listener's own connection: anything forwarded would have arrived first.
    await publishJson(listener, 'v1/devices/me/telemetry', { ping: 1 });
    expect(received).toEqual([]);
  });
});

describe('MQTT telemetry', () => {
  it('stores {k:v} with the arrival time and {ts, values} with the device’s time', async () => {
    const { api, device, client } = await connectedDevice();
    const before = Date.now();
    await publishJson(client, 'v1/devices/me/telemetry', { temperature: 21.5, running: true, mode: 'eco', config: { a: 1 } });
    await publishJson(client, 'v1/devices/me/telemetry', { ts: 1_700_000_000_000, values: { humidity: 40 } });
    const values = await latest(api, device.id);
    expect(values.temperature?.[0]?.value).toBe(21.5);
    expect(values.temperature?.[0]?.ts).toBeGreaterThanOrEqual(before);
    expect(values.running?.[0]?.value).toBe(true);
    expect(values.mode?.[0]?.value).toBe('eco');
    expect(values.config?.[0]?.value).toEqual({ a: 1 });
    expect(values.humidity?.[0]).toEqual({ ts: 1_700_000_000_000, value: 40 });
  });

  it('stores an array of {ts, values} items and of {k:v} items', async () => {
    const { api, device, client } = await connectedDevice();
    await publishJson(client, 'v1/devices/me/telemetry', [
      { ts: 1_000, values: { level: 1 } },
      { ts: 2_000, values: { level: 2 } },
      { ts: 3_000, values: { level: 3, flow: 0.5 } },
    ]);
    await publishJson(client, 'v1/devices/me/telemetry', [{ pressure: 101 }, { voltage: 230 }]);
    const h = await history(api, device.id, 'level,flow');
    expect(h.level).toEqual([{ ts: 1_000, value: 1 }, { ts: 2_000, value: 2 }, { ts: 3_000, value: 3 }]);
    expect(h.flow).toEqual([{ ts: 3_000, value: 0.5 }]);
    const now = await latest(api, device.id, 'pressure,voltage');
    expect(now.pressure?.[0]?.value).toBe(101);
    expect(now.voltage?.[0]?.value).toBe(230);
  });

  it('keeps the newest value as latest when an older message arrives late', async () => {
    const { api, device, client } = await connectedDevice();
    await publishJson(client, 'v1/devices/me/telemetry', { ts: 5_000, values: { t: 5 } });
    await publishJson(client, 'v1/devices/me/telemetry', { ts: 4_000, values: { t: 4 } });
    expect((await latest(api, device.id)).t).toEqual([{ ts: 5_000, value: 5 }]);
    expect((await history(api, device.id, 't')).t?.map((p) => p.value)).toEqual([4, 5]);
  });

  it('drops malformed JSON and wrong shapes with a counted reason, keeps the connection and still acknowledges', async () => {
    const { app, api, device, client } = await connectedDevice();
    const refusals: [string | Buffer, string][] = [
      ['{"temperature": 21.5', 'error.transport.malformedJson'],
      ['"just a string"', 'error.transport.payloadShape'],
      ['[1, 2]', 'error.transport.payloadShape'],
      [JSON.stringify({ ts: 'yesterday', values: { a: 1 } }), 'error.transport.badTs'],
      [JSON.stringify({ ts: 1, values: [1] }), 'error.transport.payloadShape'],
      [JSON.stringify({ a: null }), 'error.transport.nullValue'],
      [JSON.stringify({ ['k'.repeat(256)]: 1 }), 'error.transport.badKey'],
      ['{}', 'error.transport.empty'],
      [Buffer.from([0xff, 0xfe, 0x00]), 'error.transport.malformedJson'],
    ];
    for (const [payload] of refusals) await client.publishAsync('v1/devices/me/telemetry', payload, { qos: 1 });
    expect(client.connected).toBe(true);
    await publishJson(client, 'v1/devices/me/telemetry', { good: 1 });
    expect(await api.ok(telemetryRoutes.timeseriesKeys, { params: { id: device.id } })).toEqual(['good']);
    const { refused } = app.services!.transport!.statsSnapshot();
    for (const [, key] of refusals) expect(refused[key], key).toBeGreaterThan(0);
    expect(refused['error.transport.malformedJson']).toBe(2);
  });

  it('refuses a payload over 64 KB while another device keeps publishing', async () => {
    const { app, api, device, client } = await connectedDevice();
    const other = await api.createDevice();
    const steady = await connectDevice(app, { username: await tokenOf(api, other.id) });
    const big = JSON.stringify({ blob: 'x'.repeat(70 * 1024) });
    const sent = Promise.all([1, 2, 3].map(() => client.publishAsync('v1/devices/me/telemetry', big, { qos: 1 })));
    for (let i = 1; i <= 20; i++) await publishJson(steady, 'v1/devices/me/telemetry', { ts: i, values: { n: i } });
    await sent;
    expect(client.connected).toBe(true);
    expect(await api.ok(telemetryRoutes.timeseriesKeys, { params: { id: device.id } })).toEqual([]);
    expect((await history(api, other.id, 'n')).n).toHaveLength(20);
    expect(app.services!.transport!.statsSnapshot().refused['error.transport.payloadTooLarge']).toBe(3);
    // The refused device is still served.
    await publishJson(client, 'v1/devices/me/telemetry', { small: 1 });
    expect((await latest(api, device.id)).small?.[0]?.value).toBe(1);
  });

  it('closes a connection announcing a packet over 1 MB before reading it, and serves others', async () => {
    const { app, api, client } = await connectedDevice();
    const other = await api.createDevice();
    const steady = await connectDevice(app, { username: await tokenOf(api, other.id) });
    const closed = closedBy(client);
    client.publish('v1/devices/me/telemetry', Buffer.alloc(2 * 1024 * 1024, 0x20), { qos: 0 });
    await closed;
    await publishJson(steady, 'v1/devices/me/telemetry', { alive: 1 });
    expect((await latest(api, other.id)).alive?.[0]?.value).toBe(1);
    expect(app.services!.transport!.statsSnapshot().refused.frameTooLarge).toBe(1);
  });

  it('acknowledges QoS 1 only once the message is stored, and announces it after the commit', async () => {
    const bus = new EventBus();
    const stored = record(bus, 'telemetry.stored');
    const received = record(bus, 'message.received');
    const { api, device, client } = await connectedDevice(bus);
    const payload = JSON.stringify({ ts: 42, values: { a: 1, b: 'two' } });
    await client.publishAsync('v1/devices/me/telemetry', payload, { qos: 1 });
    // The PUBACK came back: the values must already be readable, and announced.
    expect((await history(api, device.id, 'a,b')).b).toEqual([{ ts: 42, value: 'two' }]);
    expect(stored).toEqual([
      { deviceId: device.id, deviceProfileId: device.deviceProfileId, entries: [{ ts: 42, key: 'a', value: 1 }, { ts: 42, key: 'b', value: 'two' }] },
    ]);
    expect(received).toMatchObject([{ deviceId: device.id, bytes: Buffer.byteLength(payload) }]);
  });
});

describe('MQTT attributes, events and RPC', () => {
  it('keeps the latest client attributes and answers an attribute request', async () => {
    const { api, device, client } = await connectedDevice();
    await publishJson(client, 'v1/devices/me/attributes', { firmware: '1.0', serial: 'A1' });
    await publishJson(client, 'v1/devices/me/attributes', { firmware: '1.1' });
    const attributes = await api.ok(telemetryRoutes.attributes, { params: { id: device.id } });
    expect(attributes.map((a) => [a.key, a.value])).toEqual([['firmware', '1.1'], ['serial', 'A1']]);
    await client.subscribeAsync('v1/devices/me/attributes/response/+', { qos: 1 });
    const answer = new Promise<[string, unknown]>((resolve) => client.once('message', (topic, body) => resolve([topic, JSON.parse(body.toString())])));
    await publishJson(client, 'v1/devices/me/attributes/request/7', { clientKeys: 'firmware' });
    expect(await answer).toEqual(['v1/devices/me/attributes/response/7', { client: { firmware: '1.1' } }]);
  });

  it('stores reported events and announces them (no published model: not matched, not flagged)', async () => {
    const bus = new EventBus();
    const reported = record(bus, 'device.eventReported');
    const { device, client } = await connectedDevice(bus);
    await publishJson(client, 'v1/devices/me/events', [
      { identifier: 'overheat', ts: 1_000, type: 'ALERT', params: { temperature: 95 } },
      { identifier: 'boot' },
    ]);
    expect(reported).toMatchObject([
      { deviceId: device.id, ts: 1_000, identifier: 'overheat', eventType: 'ALERT', params: { temperature: 95 } },
      { deviceId: device.id, identifier: 'boot', eventType: 'INFO', params: {} },
    ]);
    expect(reported[0]!.eventId).not.toBe(reported[1]!.eventId);
  });

  it('refuses an event without an identifier', async () => {
    const { app, client } = await connectedDevice();
    await publishJson(client, 'v1/devices/me/events', { params: { a: 1 } });
    expect(app.services!.transport!.statsSnapshot().refused['error.transport.badEvent']).toBe(1);
  });

  it('sends a server RPC to the connected device with QoS 1 and announces its answer', async () => {
    const bus = new EventBus();
    const answers = record(bus, 'device.rpcResponse');
    const { app, device, client } = await connectedDevice(bus);
    await client.subscribeAsync('v1/devices/me/rpc/request/+', { qos: 1 });
    const request = new Promise<{ topic: string; qos: number; body: unknown }>((resolve) =>
      client.once('message', (topic, body, packet) => resolve({ topic, qos: packet.qos, body: JSON.parse(body.toString()) })),
    );
    expect(app.services!.transport!.isOnline(device.id)).toBe(true);
    expect(app.services!.transport!.sendRpc(device.id, 17, 'setValve', { open: true })).toBe(true);
    expect(await request).toEqual({ topic: 'v1/devices/me/rpc/request/17', qos: 1, body: { method: 'setValve', params: { open: true } } });
    await publishJson(client, 'v1/devices/me/rpc/response/17', { ok: true });
    await client.publishAsync('v1/devices/me/rpc/response/18', 'plain text', { qos: 1 });
    expect(answers).toEqual([
      { deviceId: device.id, requestId: 17, payload: { ok: true } },
      { deviceId: device.id, requestId: 18, payload: 'plain text' },
    ]);
  });

  it('does not send an RPC to an offline device', async () => {
    const { app, api } = await makeDeviceApp();
    const device = await api.createDevice();
    expect(app.services!.transport!.isOnline(device.id)).toBe(false);
    expect(app.services!.transport!.sendRpc(device.id, 1, 'reboot', {})).toBe(false);
  });
});

describe('device state over MQTT', () => {
  it('is ONLINE while connected and OFFLINE after the disconnect, with both times stored', async () => {
    const bus = new EventBus();
    const changes = record(bus, 'device.stateChanged');
    const { api, device, client } = await connectedDevice(bus);
    const online = await api.ok(deviceRoutes.get, { params: { id: device.id } });
    expect(online.deviceState).toBe('ONLINE');
    expect(online.lastOnlineTime).toBeGreaterThan(0);
    await client.endAsync();
    const offline = await eventually(() => api.ok(deviceRoutes.get, { params: { id: device.id } }), (d) => d.deviceState === 'OFFLINE');
    expect(offline.lastOfflineTime).toBeGreaterThanOrEqual(online.lastOnlineTime!);
    expect(changes.map((c) => [c.deviceId, c.state])).toEqual([[device.id, 'ONLINE'], [device.id, 'OFFLINE']]);
  });

  it('stays ONLINE while a second session of the same device is open', async () => {
    const { app, api, device, token, client } = await connectedDevice();
    const second = await connectDevice(app, { username: token, clientId: 'second-session' });
    await client.endAsync();
    await second.publishAsync('v1/devices/me/telemetry', JSON.stringify({ a: 1 }), { qos: 1 });
    expect(app.services!.transport!.isOnline(device.id)).toBe(true);
    expect((await api.ok(deviceRoutes.get, { params: { id: device.id } })).deviceState).toBe('ONLINE');
  });
});
