/**
 * The DELIVERED command status over real MQTT, the HTTP device API and a gateway, and command
 * records pushed live over a real /api/ws websocket.
 */
import { describe, expect, it } from 'vitest';
import type { IClientOptions, MqttClient } from 'mqtt';
import { commandRoutes, type Command, type CommandBody, type CommandStatus } from '../../server/contract/command.ts';
import type { Device } from '../../server/contract/device.ts';
import { WsErrorCode, type CommandsUpdate } from '../../server/contract/realtime.ts';
import { LiveClient, makeLiveApp, type LiveTestApp } from '../helpers/live.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';

interface Received {
  requestId: number;
  qos: number;
}

/** An MQTT device subscribed to its RPC requests at `qos`, noting what arrives (it answers only when told). */
async function mqttDevice(t: LiveTestApp, target: Device, qos: 0 | 1, options: IClientOptions = {}): Promise<{ mqtt: MqttClient; received: Received[] }> {
  const received: Received[] = [];
  const mqtt = await connectDevice(t.app, { username: await tokenOf(t.api, target.id), ...options });
  mqtt.on('message', (topic, _payload, packet) => {
    const match = /^v1\/devices\/me\/rpc\/request\/(\d+)$/.exec(topic);
    if (match) received.push({ requestId: Number(match[1]), qos: packet.qos });
  });
  await mqtt.subscribeAsync('v1/devices/me/rpc/request/+', { qos });
  await eventually(() => t.app.services!.transport!.isOnline(target.id), Boolean);
  return { mqtt, received };
}

/**
 * Resolves once the server has handled everything this client sent before: aedes handles one
 * client's packets in order, so a PUBACK sent earlier has been taken into account when the PUBACK
 * of this publish comes back.
 */
async function settled(mqtt: MqttClient): Promise<void> {
  await mqtt.publishAsync('v1/devices/me/telemetry', '{"sync":1}', { qos: 1 });
}

function send(t: LiveTestApp, deviceId: string, body: Partial<CommandBody> = {}): Promise<Command> {
  return t.api.ok(commandRoutes.send, {
    params: { id: deviceId },
    body: { commandType: 'CUSTOM', callType: 'ASYNC', way: 'twoway', content: '{"method":"getValue"}', ...body },
  });
}

async function record(t: LiveTestApp, deviceId: string, commandId: string): Promise<Command> {
  const page = await t.api.ok(commandRoutes.list, { params: { id: deviceId }, query: { pageSize: 100 } });
  const found = page.items.find((c) => c.id === commandId);
  if (!found) throw new Error(`no command ${commandId}`);
  return found;
}

function statusIs(status: CommandStatus): (c: Command) => boolean {
  return (c) => c.status === status;
}

describe('DELIVERED over MQTT', () => {
  it('takes a two-way command to a QoS 1 subscriber from SENT to DELIVERED on its PUBACK, then SUCCESSFUL with the answer', async () => {
    const t = await makeLiveApp();
    const d = await t.api.createDevice();
    const { mqtt, received } = await mqttDevice(t, d, 1);
    const command = await send(t, d.id);
    expect(command).toMatchObject({ status: 'SENT', deliveredTime: null });
    const delivered = await eventually(() => record(t, d.id, command.id), statusIs('DELIVERED'));
    expect(received).toEqual([{ requestId: command.requestId, qos: 1 }]);
    expect(delivered.deliveredTime).toBeGreaterThanOrEqual(delivered.sentTime!);
    expect(delivered.respondedTime).toBeNull();

    await mqtt.publishAsync(`v1/devices/me/rpc/response/${command.requestId}`, '{"value":7}', { qos: 1 });
    const done = await eventually(() => record(t, d.id, command.id), statusIs('SUCCESSFUL'));
    expect(done).toMatchObject({ responseType: 'JSON', responseContent: '{"value":7}', deliveredTime: delivered.deliveredTime });
  });

  it('sends a QoS 0 subscriber its request at QoS 0 and leaves the command SENT until the answer', async () => {
    const t = await makeLiveApp();
    const d = await t.api.createDevice();
    const { mqtt, received } = await mqttDevice(t, d, 0);
    const command = await send(t, d.id);
    await eventually(() => received.length, (n) => n === 1);
    expect(received[0]).toEqual({ requestId: command.requestId, qos: 0 });
    await settled(mqtt);
    expect(await record(t, d.id, command.id)).toMatchObject({ status: 'SENT', deliveredTime: null });

    await mqtt.publishAsync(`v1/devices/me/rpc/response/${command.requestId}`, 'ok', { qos: 1 });
    const done = await record(t, d.id, command.id);
    // The answer proves the delivery no acknowledgement told of.
    expect(done).toMatchObject({ status: 'SUCCESSFUL', responseType: 'TEXT', responseContent: 'ok' });
    expect(done.deliveredTime).toBe(done.respondedTime);
  });

  it('ends an acknowledged one-way command SUCCESSFUL, and leaves a QoS 0 one SENT', async () => {
    const t = await makeLiveApp();
    const acked = await t.api.createDevice();
    const unacked = await t.api.createDevice();
    const one = await mqttDevice(t, acked, 1);
    const zero = await mqttDevice(t, unacked, 0);
    const first = await send(t, acked.id, { way: 'oneway', callType: 'SYNC' });
    const second = await send(t, unacked.id, { way: 'oneway', callType: 'SYNC' });
    expect([first.status, second.status]).toEqual(['SENT', 'SENT']);
    const done = await eventually(() => record(t, acked.id, first.id), statusIs('SUCCESSFUL'));
    expect(done).toMatchObject({ responseType: null, responseContent: null, respondedTime: null, deliveredTime: expect.any(Number) });
    await eventually(() => zero.received.length, (n) => n === 1);
    await settled(zero.mqtt);
    expect((await record(t, unacked.id, second.id)).status).toBe('SENT');
    expect(one.received).toHaveLength(1);
  });

  it('keeps an answer that overtook the acknowledgement SUCCESSFUL when the PUBACK comes after it', async () => {
    const t = await makeLiveApp();
    const d = await t.api.createDevice();
    const { mqtt, received } = await mqttDevice(t, d, 1);
    // Hold the PUBACK back: mqtt.js acknowledges once `handleMessage` calls back.
    let release: (() => void) | null = null;
    mqtt.handleMessage = (_packet, callback) => {
      release = () => callback();
    };
    const command = await send(t, d.id);
    await eventually(() => received.length, (n) => n === 1);
    // QoS 0: while the PUBACK is held, mqtt.js handles no incoming packet (a QoS 1 answer's PUBACK included).
    mqtt.publish(`v1/devices/me/rpc/response/${command.requestId}`, '"early"', { qos: 0 });
    const answered = await eventually(() => record(t, d.id, command.id), statusIs('SUCCESSFUL'));
    expect(answered.deliveredTime).toBe(answered.respondedTime);
    release!();
    await settled(mqtt);
    expect(await record(t, d.id, command.id)).toEqual(answered);
  });

  it('marks a sub-device command DELIVERED when its gateway acknowledges v1/gateway/rpc', async () => {
    const t = await makeLiveApp();
    const gateway = await t.api.createDevice({ deviceType: 'GATEWAY' });
    const sensorProduct = await t.api.createProduct({ deviceType: 'SENSOR' });
    const sensor = await t.api.createDevice({ deviceType: 'SENSOR', deviceProfileId: sensorProduct.id, gatewayId: gateway.id });
    const mqtt = await connectDevice(t.app, { username: await tokenOf(t.api, gateway.id) });
    await mqtt.subscribeAsync('v1/gateway/rpc', { qos: 1 });
    await mqtt.publishAsync('v1/gateway/connect', JSON.stringify({ device: sensor.name }), { qos: 1 });
    const command = await send(t, sensor.id);
    const delivered = await eventually(() => record(t, sensor.id, command.id), statusIs('DELIVERED'));
    expect(delivered.deliveredTime).not.toBeNull();
    await mqtt.publishAsync('v1/gateway/rpc', JSON.stringify({ device: sensor.name, id: command.requestId, data: { ok: true } }), { qos: 1 });
    expect((await record(t, sensor.id, command.id)).status).toBe('SUCCESSFUL');
  });
});

describe('DELIVERED over the HTTP device API', () => {
  it('marks a command DELIVERED once a poll of GET …/rpc hands it to the device', async () => {
    const t = await makeLiveApp({ listen: true });
    const d = await t.api.createDevice();
    const token = await tokenOf(t.api, d.id);
    const device = (path: string, init?: RequestInit) => fetch(`${t.baseUrl}/api/v1/${token}${path}`, init);
    expect((await device('/telemetry', { method: 'POST', body: '{"a":1}' })).status).toBe(200);
    const command = await send(t, d.id);
    expect(command.status).toBe('SENT');
    expect((await record(t, d.id, command.id)).deliveredTime).toBeNull();

    const poll = await device('/rpc?timeout=1000');
    expect(await poll.json()).toMatchObject({ id: command.requestId, method: 'getValue' });
    const delivered = await eventually(() => record(t, d.id, command.id), statusIs('DELIVERED'));
    expect(delivered.deliveredTime).not.toBeNull();
    expect((await device(`/rpc/${command.requestId}`, { method: 'POST', body: '{"value":1}' })).status).toBe(200);
    expect(await record(t, d.id, command.id)).toMatchObject({ status: 'SUCCESSFUL', deliveredTime: delivered.deliveredTime });
  });
});

describe('command records live on /api/ws', () => {
  /** Every record a COMMANDS subscription received for `commandId`, in order, until `last` shows up. */
  async function statusesOf(ws: LiveClient, cmdId: number, commandId: string, last: CommandStatus): Promise<CommandStatus[]> {
    const seen: CommandStatus[] = [];
    while (seen[seen.length - 1] !== last) {
      const update = await ws.answer<CommandsUpdate>(cmdId);
      seen.push(...update.data.filter((c) => c.id === commandId).map((c) => c.status));
    }
    return seen;
  }

  it('pushes each status a command goes through, QUEUED to SUCCESSFUL, to subscribers of its device', async () => {
    const t = await makeLiveApp({ listen: true });
    const d = await t.api.createDevice();
    const other = await t.api.createDevice();
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ cmds: [{ type: 'COMMANDS', cmdId: 1, entityType: 'DEVICE', entityId: d.id }, { type: 'COMMANDS', cmdId: 2, entityId: other.id }] });
    expect(await ws.answer(1)).toEqual({ subscriptionId: 1, cmdId: 1, errorCode: 0, errorMsg: null, data: [], cmdUpdateType: 'COMMANDS' });
    expect(await ws.answer(2)).toMatchObject({ errorCode: 0, data: [] });

    const queued = await send(t, d.id);
    expect(await statusesOf(ws, 1, queued.id, 'QUEUED')).toEqual(['QUEUED']);
    const { mqtt } = await mqttDevice(t, d, 1);
    expect(await statusesOf(ws, 1, queued.id, 'DELIVERED')).toEqual(['SENT', 'DELIVERED']);
    await mqtt.publishAsync(`v1/devices/me/rpc/response/${queued.requestId}`, '{"value":3}', { qos: 1 });
    const last = await ws.answer<CommandsUpdate>(1);
    expect(last.data).toEqual([await record(t, d.id, queued.id)]);
    expect(last.data[0]).toMatchObject({ status: 'SUCCESSFUL', responseContent: '{"value":3}' });
    // The other device's subscription heard nothing of it.
    expect(ws.pending().filter((m) => m.cmdId === 2)).toEqual([]);
  });

  it('stops pushing after COMMANDS_UNSUBSCRIBE and answers 32 for an unknown device', async () => {
    const t = await makeLiveApp({ listen: true });
    const d = await t.api.createDevice();
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ cmds: [{ type: 'COMMANDS', cmdId: 1, entityId: d.id }, { type: 'COMMANDS', cmdId: 2, entityId: 'nope' }, { type: 'COMMANDS', cmdId: 3 }] });
    await ws.answer(1);
    expect(await ws.answer(2)).toMatchObject({ errorCode: WsErrorCode.NOT_FOUND, cmdUpdateType: 'COMMANDS' });
    expect(await ws.answer(3)).toMatchObject({ errorCode: WsErrorCode.BAD_REQUEST });
    ws.send({ cmds: [{ type: 'COMMANDS_UNSUBSCRIBE', cmdId: 1 }] });
    await eventually(() => t.app.services!.realtime!.stats().subscriptions, (n) => n === 0);
    await send(t, d.id);
    // A later subscription on the same socket hears its own command, and only that one.
    ws.send({ cmds: [{ type: 'COMMANDS', cmdId: 4, entityId: d.id }] });
    await ws.answer(4);
    const next = await send(t, d.id);
    expect((await ws.answer<CommandsUpdate>(4)).data.map((c) => c.id)).toEqual([next.id]);
    expect(ws.pending()).toEqual([]);
  });
});
