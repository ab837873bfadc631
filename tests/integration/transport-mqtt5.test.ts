/**
 * MQTT 5 (ThingsBoard's Python SDK speaks only 5) and MQTT 3.1 on the device port beside 3.1.1:
 * connect, telemetry, server RPC, the reason codes of CONNACK, PUBACK, SUBACK and the server's
 * DISCONNECT, session takeover, the will, and MQTT device provisioning.
 */
import { connect as netConnect } from 'node:net';
import { connect, type IClientOptions, type IConnackPacket, type IDisconnectPacket, type MqttClient } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { credentialsRoutes } from '../../server/contract/credentials.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { telemetryRoutes, type TimeseriesValues } from '../../server/contract/telemetry.ts';
import { makeDeviceApp, type DeviceApi, type DeviceTestApp } from '../helpers/devices.ts';
import { closedBy, connectDevice, connectRefused, connectWatching, eventually, mqttUrl, tokenOf } from '../helpers/mqtt.ts';

const V5: IClientOptions = { protocolVersion: 5 };

function history(api: DeviceApi, id: string, keys: string): Promise<TimeseriesValues> {
  return api.ok(telemetryRoutes.timeseries, { params: { id }, query: { keys, startTs: 0, endTs: Date.now() + 60_000, orderBy: 'ASC', limit: 1000 } });
}

async function connectedV5(t: DeviceTestApp, options: IClientOptions = {}) {
  const device = await t.api.createDevice();
  const token = await tokenOf(t.api, device.id);
  const client = await connectDevice(t.app, { ...V5, username: token, clientId: `c-${device.id}`, ...options });
  return { device, token, client };
}

/** The reason code of a refused PUBACK (MQTT.js rejects the publish with it), or 0 when accepted. */
async function pubackReason(client: MqttClient, topic: string, payload: string | Buffer): Promise<number> {
  return client.publishAsync(topic, payload, { qos: 1 }).then(
    () => 0,
    (err: { code?: number }) => err.code ?? -1,
  );
}

/** The DISCONNECT the server sends before it closes the connection. */
function serverDisconnect(client: MqttClient): Promise<IDisconnectPacket> {
  return new Promise((resolve) => client.once('disconnect', (packet) => resolve(packet)));
}

/** Bytes the server answers to `bytes` on a raw socket, until it closes the connection. */
function rawExchange(port: number, bytes: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks)));
  });
}

describe('MQTT 5 devices', () => {
  it('connect, store telemetry that the history API returns, and receive a server RPC at QoS 1', async () => {
    const t = await makeDeviceApp();
    const { device, client } = await connectedV5(t);
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 1_000, values: { temperature: 21.5 } }), { qos: 1 });
    expect((await history(t.api, device.id, 'temperature')).temperature).toEqual([{ ts: 1_000, value: 21.5 }]);

    await client.subscribeAsync('v1/devices/me/rpc/request/+', { qos: 1 });
    const request = new Promise<{ topic: string; qos: number; body: unknown }>((resolve) =>
      client.once('message', (topic, body, packet) => resolve({ topic, qos: packet.qos, body: JSON.parse(body.toString()) })),
    );
    expect(t.app.services!.transport!.sendRpc(device.id, 5, 'reboot', { delay: 1 })).toBe(true);
    expect(await request).toEqual({ topic: 'v1/devices/me/rpc/request/5', qos: 1, body: { method: 'reboot', params: { delay: 1 } } });
  });

  it('are told the server’s limits in the CONNACK, and get an assigned client identifier when they sent none', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const client = connect(mqttUrl(t.app), { ...V5, reconnectPeriod: 0, username: await tokenOf(t.api, device.id), clientId: '' });
    try {
      const connack = await new Promise<IConnackPacket>((resolve, reject) => {
        client.once('connect', resolve);
        client.once('error', reject);
      });
      expect(connack.reasonCode).toBe(0);
      expect(connack.properties).toMatchObject({ receiveMaximum: 100, maximumPacketSize: 1024 * 1024, topicAliasMaximum: 0, retainAvailable: false });
      expect(connack.properties?.assignedClientIdentifier).toMatch(/\S/);
    } finally {
      await client.endAsync(true);
    }
  });

  it('stay connected through the ThingsBoard SDK’s connect sequence of subscriptions', async () => {
    const t = await makeDeviceApp();
    const { client } = await connectedV5(t);
    const granted = await Promise.all(
      ['v1/devices/me/attributes', 'v1/devices/me/attributes/response/+', 'v1/devices/me/rpc/request/+'].map((topic) => client.subscribeAsync(topic, { qos: 1 })),
    );
    expect(granted.map(([g]) => g!.qos)).toEqual([1, 1, 1]);
    // Its last subscription may be refused (client-side RPC); the connection stays either way.
    await client.subscribeAsync('v1/devices/me/rpc/response/+', { qos: 1 }).catch(() => undefined);
    await client.publishAsync('v1/devices/me/telemetry', '{"after":1}', { qos: 1 });
    expect(client.connected).toBe(true);
  });

  it('refuse an unknown token with CONNACK 0x86 and an over-long client identifier with 0x85', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    expect((await connectRefused(t.app, { ...V5, username: 'no-such-token' })).code).toBe(0x86);
    expect((await connectRefused(t.app, { ...V5, username: await tokenOf(t.api, device.id), clientId: 'c'.repeat(300) })).code).toBe(0x85);
    expect(t.app.services!.transport!.statsSnapshot().refused).toMatchObject({ authentication: 1, clientId: 1 });
  });

  it('answers an unsupported protocol version with CONNACK 0x84, and counts it', async () => {
    const t = await makeDeviceApp();
    // CONNECT: protocol "MQTT" level 6, clean start, keepalive 60, client id "a".
    const connect = Buffer.from([0x10, 13, 0, 4, 0x4d, 0x51, 0x54, 0x54, 6, 0x02, 0, 60, 0, 1, 0x61]);
    const answer = await rawExchange(t.app.services!.transport!.mqttPort, connect);
    expect([...answer]).toEqual([0x20, 3, 0, 0x84, 0]);
    expect(t.app.services!.transport!.statsSnapshot().refused.protocolVersion).toBe(1);
  });

  it('get a PUBACK saying why a message was refused, and stay connected', async () => {
    const t = await makeDeviceApp();
    const { device, client } = await connectedV5(t);
    expect(await pubackReason(client, 'v1/devices/me/telemetry', '{"temperature": 21')).toBe(0x99);
    expect(await pubackReason(client, 'v1/devices/me/telemetry', JSON.stringify({ __proto__x: 1, constructor: 2 }))).toBe(0x99);
    expect(await pubackReason(client, 'v1/devices/me/telemetry', JSON.stringify({ blob: 'x'.repeat(70 * 1024) }))).toBe(0x97);
    expect(await pubackReason(client, 'v1/devices/other/telemetry', '{"leaked":1}')).toBe(0x87);
    expect(await pubackReason(client, 'v1/devices/me/telemetry', '{"good":1}')).toBe(0);
    expect(client.connected).toBe(true);
    expect(await t.api.ok(telemetryRoutes.timeseriesKeys, { params: { id: device.id } })).toEqual(['good']);
  });

  it('get SUBACK 0x87 for a filter they may not subscribe', async () => {
    const t = await makeDeviceApp();
    const { client } = await connectedV5(t);
    const refused = await client.subscribeAsync(['v1/devices/me/rpc/request/+', '#'], { qos: 1 }).then(
      (granted) => granted.map((g) => g.qos),
      (err: { packet: { granted: number[] } }) => err.packet.granted,
    );
    expect(refused).toEqual([1, 0x87]);
    expect(client.connected).toBe(true);
  });

  it('are told 0x87 when their credentials change and 0x8E when another connection takes their session over', async () => {
    const t = await makeDeviceApp();
    const { device, token, client } = await connectedV5(t);
    const taken = serverDisconnect(client);
    const fresh = await connectDevice(t.app, { ...V5, username: token, clientId: `c-${device.id}` });
    expect((await taken).reasonCode).toBe(0x8e);
    await fresh.publishAsync('v1/devices/me/telemetry', '{"a":1}', { qos: 1 });
    expect(t.app.services!.transport!.isOnline(device.id)).toBe(true);

    const revoked = serverDisconnect(fresh);
    await t.api.ok(credentialsRoutes.regenerate, { params: { id: device.id } });
    expect((await revoked).reasonCode).toBe(0x87);
  });

  it('resume a session only when they connected with a Session Expiry Interval', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const options = { ...V5, username: await tokenOf(t.api, device.id), clientId: 'resumable', clean: false };
    const brief = await connectWatching(t.app, { ...options, properties: { sessionExpiryInterval: 0 } });
    await brief.client.subscribeAsync('v1/devices/me/rpc/request/+', { qos: 1 });
    await brief.client.endAsync();
    const kept = await connectWatching(t.app, { ...options, properties: { sessionExpiryInterval: 60 } });
    expect(kept.sessionPresent).toBe(false);
    await kept.client.subscribeAsync('v1/devices/me/rpc/request/+', { qos: 1 });
    await kept.client.endAsync();
    const back = await connectWatching(t.app, { ...options, properties: { sessionExpiryInterval: 60 } });
    expect(back.sessionPresent).toBe(true);
  });

  it('are closed with DISCONNECT 0x95 when a frame announces over 1 MB', async () => {
    const t = await makeDeviceApp();
    const { client } = await connectedV5(t);
    const told = serverDisconnect(client);
    const closed = closedBy(client);
    client.publish('v1/devices/me/telemetry', Buffer.alloc(2 * 1024 * 1024, 0x20), { qos: 0 });
    expect((await told).reasonCode).toBe(0x95);
    await closed;
  });

  it('store QoS 2 telemetry once, acknowledged through PUBREC and PUBCOMP', async () => {
    const t = await makeDeviceApp();
    const { device, client } = await connectedV5(t);
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 7, values: { q: 2 } }), { qos: 2 });
    expect((await history(t.api, device.id, 'q')).q).toEqual([{ ts: 7, value: 2 }]);
  });

  it('have their will published when they disconnect with reason 0x04, and not after a normal DISCONNECT', async () => {
    const t = await makeDeviceApp();
    const will = { topic: 'v1/devices/me/telemetry', payload: Buffer.from('{"lastWill":1}'), qos: 1 as const, retain: false };
    const { device: quiet, client: normal } = await connectedV5(t, { will });
    await normal.endAsync();
    const { device: loud, client: withWill } = await connectedV5(t, { will });
    await withWill.endAsync(false, { reasonCode: 0x04 });
    await eventually(() => t.api.ok(telemetryRoutes.timeseriesKeys, { params: { id: loud.id } }), (k) => k.length > 0);
    expect(await t.api.ok(telemetryRoutes.timeseriesKeys, { params: { id: loud.id } })).toEqual(['lastWill']);
    expect(await t.api.ok(telemetryRoutes.timeseriesKeys, { params: { id: quiet.id } })).toEqual([]);
  });
});

describe('MQTT 3.1 devices', () => {
  it('connect with protocol MQIsdp level 3 and store telemetry', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const client = await connectDevice(t.app, { protocolId: 'MQIsdp', protocolVersion: 3, username: await tokenOf(t.api, device.id), clientId: 'old-meter' });
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 3, values: { v: 31 } }), { qos: 1 });
    expect((await history(t.api, device.id, 'v')).v).toEqual([{ ts: 3, value: 31 }]);
  });
});

describe('MQTT device provisioning', () => {
  it('provisions a device over /provision/request in MQTT 5 and 3.1.1, whose token then connects; the connection may use nothing else', async () => {
    const t = await makeDeviceApp();
    const product = (await t.api.createProduct({ provisionEnabled: true })) as { id: string; provisionDeviceKey: string; provisionDeviceSecret: string };
    for (const [options, name] of [[V5, 'meter 9.1'], [{}, 'meter 9.2']] as const) {
      const client = await connectDevice(t.app, { ...options, username: 'provision', clientId: '' });
      await client.subscribeAsync('/provision/response', { qos: 1 });
      const answer = new Promise<{ status: string; credentialsValue: string }>((resolve) =>
        client.once('message', (_topic, body) => resolve(JSON.parse(body.toString()) as { status: string; credentialsValue: string })),
      );
      const request = { deviceName: name, provisionDeviceKey: product.provisionDeviceKey, provisionDeviceSecret: product.provisionDeviceSecret };
      await client.publishAsync('/provision/request', JSON.stringify(request), { qos: 1 });
      const provisioned = await answer;
      expect(provisioned).toMatchObject({ status: 'SUCCESS', credentialsType: 'ACCESS_TOKEN' });
      const refused = await client.subscribeAsync('v1/devices/me/rpc/request/+', { qos: 1 }).then(
        (granted) => granted.map((g) => g.qos),
        (err: { packet: { granted: number[] } }) => err.packet.granted,
      );
      expect(refused).toEqual([options === V5 ? 0x87 : 0x80]);
      await client.endAsync();
      const device = await connectDevice(t.app, { ...options, username: provisioned.credentialsValue });
      expect(device.connected).toBe(true);
      await device.endAsync();
    }
  });

  it('answers a wrong secret with NOT_FOUND on /provision/response and creates nothing', async () => {
    const t = await makeDeviceApp();
    const product = (await t.api.createProduct({ provisionEnabled: true })) as { id: string; provisionDeviceKey: string };
    const client = await connectDevice(t.app, { ...V5, username: 'provision', clientId: '' });
    await client.subscribeAsync('/provision/response', { qos: 1 });
    const answer = new Promise<unknown>((resolve) => client.once('message', (_topic, body) => resolve(JSON.parse(body.toString()))));
    await client.publishAsync('/provision/request', JSON.stringify({ deviceName: 'intruder', provisionDeviceKey: product.provisionDeviceKey, provisionDeviceSecret: 'guess' }), { qos: 1 });
    expect(await answer).toMatchObject({ status: 'NOT_FOUND' });
    await client.endAsync();
    expect((await t.api.ok(deviceRoutes.list, { query: { deviceProfileId: product.id } })).total).toBe(0);
  });
});
