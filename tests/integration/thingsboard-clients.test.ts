/**
 * What ThingsBoard's own clients tripped over (issue 25), over real sockets: the CONNACK first when a
 * persistent session resumes with a queued RPC (raw socket and mosquitto_sub), RPC params of any JSON
 * value, provisioning a gateway, the short v2 topics and the firmware request, values as text by
 * default, the RPC body without its id, topic aliases, the offline RPC's log line and telemetry saved
 * over REST. The SDK's own provisioning and gateway sequences run in tb-sdk-client.test.ts.
 */
import { execFile } from 'node:child_process';
import { connect as netConnect, type Socket } from 'node:net';
import { promisify } from 'node:util';
import mqttPacket, { type Packet } from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { commandRoutes, type Command } from '../../server/contract/command.ts';
import { deviceRoutes, type Device } from '../../server/contract/device.ts';
import { rpcRoutes } from '../../server/contract/rpc.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { capturedLog } from '../helpers/captured-log.ts';
import { makeDeviceApp, type DeviceTestApp } from '../helpers/devices.ts';
import { closedBy, connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';

const run = promisify(execFile);
const RPC_FILTER = 'v1/devices/me/rpc/request/+';

/** A raw MQTT connection: packets written as given, every packet the server sends kept in order. */
class RawMqtt {
  readonly packets: Packet[] = [];
  readonly closed: Promise<void>;
  private readonly parser: ReturnType<typeof mqttPacket.parser>;

  private constructor(
    private readonly socket: Socket,
    private readonly version: 4 | 5,
  ) {
    this.parser = mqttPacket.parser({ protocolVersion: version });
    this.parser.on('packet', (packet: Packet) => this.packets.push(packet));
    socket.on('data', (chunk: Buffer) => this.parser.parse(chunk));
    this.closed = new Promise((resolve) => socket.on('close', () => resolve()));
  }

  static async open(port: number, version: 4 | 5 = 4): Promise<RawMqtt> {
    const socket = netConnect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    return new RawMqtt(socket, version);
  }

  send(packet: Packet): void {
    this.socket.write(mqttPacket.generate(packet, { protocolVersion: this.version }));
  }

  connect(username: string, clientId: string, clean: boolean): void {
    this.send({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: this.version, clean, clientId, keepalive: 60, username });
  }

  async until(accept: (packets: Packet[]) => boolean): Promise<Packet[]> {
    return eventually(() => this.packets, accept, 15_000);
  }

  end(): void {
    this.socket.destroy();
  }
}

function port(t: DeviceTestApp): number {
  return t.app.services!.transport!.mqttPort;
}

async function commands(t: DeviceTestApp, deviceId: string): Promise<Command[]> {
  return (await t.api.ok(commandRoutes.list, { params: { id: deviceId }, query: { page: 1, pageSize: 50 } })).items;
}

/** A persistent session subscribed to RPC requests at QoS 1, left with a DISCONNECT (its subscription kept). */
async function leavePersistentSession(t: DeviceTestApp, token: string, clientId: string): Promise<void> {
  const raw = await RawMqtt.open(port(t));
  raw.connect(token, clientId, false);
  raw.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: RPC_FILTER, qos: 1 }] });
  await raw.until((p) => p.some((x) => x.cmd === 'suback'));
  raw.send({ cmd: 'disconnect' });
  await raw.closed;
}

describe('a persistent session resumed with an RPC waiting', () => {
  it('gets the CONNACK first and the queued RPC after it, once, without an id in the body', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const token = await tokenOf(t.api, device.id);
    await leavePersistentSession(t, token, 'p1');
    await eventually(() => t.app.services!.transport!.isOnline(device.id), (online) => !online);
    await t.api.ok(rpcRoutes.oneway, { params: { id: device.id }, body: { method: 'open', params: { valve: 2 }, persistent: true } });

    const raw = await RawMqtt.open(port(t));
    raw.connect(token, 'p1', false);
    const packets = await raw.until((p) => p.some((x) => x.cmd === 'publish'));
    expect(packets[0]).toMatchObject({ cmd: 'connack', sessionPresent: true, returnCode: 0 });
    const publishes = packets.filter((p) => p.cmd === 'publish');
    expect(publishes).toHaveLength(1);
    expect(publishes[0]).toMatchObject({ topic: expect.stringMatching(/^v1\/devices\/me\/rpc\/request\/\d+$/) as string, qos: 1 });
    expect(JSON.parse(String(publishes[0]!.payload))).toEqual({ method: 'open', params: { valve: 2 } });
    raw.end();
  });

  it('lets mosquitto_sub resume its session and print the queued RPC', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const token = await tokenOf(t.api, device.id);
    const sub = ['-h', '127.0.0.1', '-p', String(port(t)), '-V', 'mqttv311', '-c', '-i', 'p1', '-u', token, '-q', '1', '-t', RPC_FILTER];
    // -E: exit once subscribed, leaving the persistent session behind.
    await run('mosquitto_sub', [...sub, '-E'], { timeout: 20_000 });
    await eventually(() => t.app.services!.transport!.isOnline(device.id), (online) => !online);
    await t.api.ok(rpcRoutes.oneway, { params: { id: device.id }, body: { method: 'setSetpoint', params: 260, persistent: true } });
    const { stdout } = await run('mosquitto_sub', [...sub, '-C', '1', '-W', '20'], { timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({ method: 'setSetpoint', params: 260 });
    await eventually(() => commands(t, device.id), (list) => list[0]?.status === 'SUCCESSFUL', 15_000);
  });
});

describe('RPC params', () => {
  it.each([
    ['a number', 260],
    ['a string', 'on'],
    ['an array', [1, 'two', null]],
    ['null', null],
  ])('are delivered unchanged when they are %s, over REST and the command API', async (_label, params) => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const client = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
    await client.subscribeAsync(RPC_FILTER, { qos: 1 });
    const received: unknown[] = [];
    client.on('message', (_topic, payload) => received.push(JSON.parse(payload.toString()) as unknown));
    const res = await t.api.call(rpcRoutes.oneway, { params: { id: device.id }, body: { method: 'setSetpoint', params } });
    expect(res.statusCode).toBe(200);
    await t.api.ok(commandRoutes.send, {
      params: { id: device.id },
      body: { commandType: 'CUSTOM', callType: 'ASYNC', way: 'oneway', content: JSON.stringify({ method: 'write', params }) },
    });
    await eventually(() => received.length, (n) => n === 2);
    expect(received).toEqual([{ method: 'setSetpoint', params }, { method: 'write', params }]);
  });

  it('still refuse a SERVICE command whose params are not an object (a service names its inputs)', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const res = await t.api.call(commandRoutes.send, {
      params: { id: device.id },
      body: { commandType: 'SERVICE', callType: 'ASYNC', way: 'oneway', content: '{"method":"reset","params":5}' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ key: 'error.command.methodRequired' });
  });
});

describe('provisioning with "gateway": true', () => {
  it('creates a GATEWAY whose sub-devices then appear', async () => {
    const t = await makeDeviceApp();
    const product = (await t.api.createProduct({ provisionEnabled: true })) as { provisionDeviceKey: string; provisionDeviceSecret: string };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/provision',
      payload: JSON.stringify({ deviceName: 'IoT Gateway 1', provisionDeviceKey: product.provisionDeviceKey, provisionDeviceSecret: product.provisionDeviceSecret, gateway: true }),
    });
    const answer = res.json() as { status: string; credentialsValue: string };
    expect(answer.status).toBe('SUCCESS');
    const gateway = (await t.api.ok(deviceRoutes.list, { query: { name: 'IoT Gateway 1' } })).items[0]!;
    expect(gateway.deviceType).toBe('GATEWAY');

    const client = await connectDevice(t.app, { username: answer.credentialsValue, protocolVersion: 5 });
    await client.publishAsync('v1/gateway/connect', JSON.stringify({ device: 'Meter 1', type: 'default' }), { qos: 1 });
    const sub = await eventually(
      async () => (await t.api.ok(deviceRoutes.list, { query: { name: 'Meter 1' } })).items[0],
      (d): d is Device => d !== undefined,
    );
    expect(sub).toMatchObject({ deviceType: 'SENSOR', gatewayId: gateway.id });
  });

  it('fails on a sub-device product, as a sub-device cannot speak for others', async () => {
    const t = await makeDeviceApp();
    const product = (await t.api.createProduct({ provisionEnabled: true, deviceType: 'SENSOR' })) as { provisionDeviceKey: string; provisionDeviceSecret: string };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/provision',
      payload: JSON.stringify({ deviceName: 'Not a gateway', provisionDeviceKey: product.provisionDeviceKey, provisionDeviceSecret: product.provisionDeviceSecret, gateway: true }),
    });
    expect(res.json()).toEqual({ status: 'FAILURE', errorMsg: 'Failed to provision device!' });
  });
});

describe('the short v2 topics', () => {
  it('store telemetry, answer attribute and client RPC requests on their short topics, and carry server RPC both ways', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const client = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
    await client.subscribeAsync(['v2/a/res/+', 'v2/r/res/+', 'v2/r/req/+'], { qos: 1 });
    const received: { topic: string; body: unknown }[] = [];
    client.on('message', (topic, payload) => received.push({ topic, body: JSON.parse(payload.toString()) as unknown }));

    await client.publishAsync('v2/t', JSON.stringify({ ts: 5_000, values: { pressure: 3 } }), { qos: 1 });
    await client.publishAsync('v2/a', JSON.stringify({ serial: 'A-1' }), { qos: 1 });
    expect((await t.api.ok(telemetryRoutes.timeseries, { params: { id: device.id }, query: { keys: 'pressure' } })).pressure).toEqual([{ ts: 5_000, value: 3 }]);
    await client.publishAsync('v2/a/req/7', JSON.stringify({ clientKeys: 'serial' }), { qos: 1 });
    await client.publishAsync('v2/r/req/8', JSON.stringify({ method: 'getCurrentTime', params: {} }), { qos: 1 });
    await eventually(() => received.length, (n) => n === 2);
    expect(received[0]).toEqual({ topic: 'v2/a/res/7', body: { client: { serial: 'A-1' } } });
    expect(received[1]).toMatchObject({ topic: 'v2/r/res/8', body: { time: expect.any(Number) as number } });

    const answered = t.api.ok(rpcRoutes.twoway, { params: { id: device.id }, body: { method: 'ping', params: 1 } });
    const request = await eventually(() => received.find((m) => m.topic.startsWith('v2/r/req/')), (m) => m !== undefined);
    expect(request!.body).toEqual({ method: 'ping', params: 1 });
    await client.publishAsync(request!.topic.replace('v2/r/req/', 'v2/r/res/'), JSON.stringify({ pong: true }), { qos: 1 });
    expect(await answered).toEqual({ pong: true });
  });

  it('answer a firmware chunk request as ThingsBoard answers a device with no firmware: NOT_FOUND on v2/fw/error, then DISCONNECT 0x83', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const client = await connectDevice(t.app, { username: await tokenOf(t.api, device.id), protocolVersion: 5 });
    await client.subscribeAsync(['v2/fw/response/+/chunk/+', 'v2/fw/error'], { qos: 1 });
    const error = new Promise<string>((resolve) => client.on('message', (topic, payload) => topic === 'v2/fw/error' && resolve(payload.toString())));
    const disconnect = new Promise<number | undefined>((resolve) => client.once('disconnect', (packet) => resolve(packet.reasonCode)));
    client.publish('v2/fw/request/0/chunk/0', '16384', { qos: 1 });
    expect(await error).toBe('NOT_FOUND');
    expect(await disconnect).toBe(0x83);
  });
});

describe('values over REST', () => {
  it('come as text by default, as ThingsBoard answers, and typed with useStrictDataTypes=true', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const client = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 1_000, values: { t: 21.5, on: true, pos: { x: 1 } } }), { qos: 1 });
    const read = (strict: boolean | undefined) =>
      t.api.ok(telemetryRoutes.timeseries, { params: { id: device.id }, query: { keys: 't,on,pos', useStrictDataTypes: strict } });
    expect(await read(undefined)).toEqual({ t: [{ ts: 1_000, value: '21.5' }], on: [{ ts: 1_000, value: 'true' }], pos: [{ ts: 1_000, value: '{"x":1}' }] });
    expect(await read(true)).toEqual({ t: [{ ts: 1_000, value: 21.5 }], on: [{ ts: 1_000, value: true }], pos: [{ ts: 1_000, value: { x: 1 } }] });
  });

  it('are saved by POST …/timeseries/{scope} as the device’s own telemetry, and refused as a device message would be', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const saved = await t.api.call(telemetryRoutes.save, { params: { id: device.id, scope: 'ANY' }, body: { ts: 2_000, values: { level: 40 } } });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toBe('');
    expect((await t.api.ok(telemetryRoutes.timeseries, { params: { id: device.id }, query: { keys: 'level' } })).level).toEqual([{ ts: 2_000, value: 40 }]);
    const empty = await t.api.call(telemetryRoutes.save, { params: { id: device.id, scope: 'ANY' }, body: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ key: 'error.transport.empty' });
    const wrongShape = await t.api.call(telemetryRoutes.save, { params: { id: device.id, scope: 'ANY' }, payload: Buffer.from('"text"'), headers: { 'content-type': 'application/json' } });
    expect(wrongShape.statusCode).toBe(400);
  });
});

describe('smaller differences', () => {
  it('disconnects an MQTT 5 publish naming a topic alias with 0x94, as none was allowed', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const raw = await RawMqtt.open(port(t), 5);
    raw.connect(await tokenOf(t.api, device.id), 'alias-1', true);
    await raw.until((p) => p.some((x) => x.cmd === 'connack'));
    raw.send({ cmd: 'publish', topic: 'v1/devices/me/telemetry', payload: '{"a":1}', qos: 1, messageId: 1, dup: false, retain: false, properties: { topicAlias: 1 } });
    const packets = await raw.until((p) => p.some((x) => x.cmd === 'disconnect'));
    expect(packets.find((p) => p.cmd === 'disconnect')).toMatchObject({ reasonCode: 0x94 });
    expect(packets.some((p) => p.cmd === 'puback')).toBe(false);
    await raw.closed;
  });

  it('logs an RPC to an offline device at info, without a stack', async () => {
    const log = capturedLog('info');
    const t = await makeDeviceApp({ logger: log.logger });
    const device = await t.api.createDevice();
    const res = await t.api.call(rpcRoutes.oneway, { params: { id: device.id }, body: { method: 'open' } });
    expect(res.statusCode).toBe(504);
    const lines = log.lines().filter((l) => JSON.stringify(l).includes('error.rpc.deviceOffline'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line.level).toBe(30);
      expect(JSON.stringify(line)).not.toContain('stack');
    }
    expect(log.lines().filter((l) => (l.level as number) >= 40 && String(l.msg).startsWith('request'))).toEqual([]);
  });

  it('closes the connection of a device that publishes on an unknown short topic, as on any unknown topic', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const client = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
    const closed = closedBy(client);
    client.publish('v2/unknown', '{}', { qos: 1 });
    await closed;
  });
});
