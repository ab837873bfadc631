/**
 * MQTT sessions belong to the device that opened them: another device presenting the same client
 * ID neither inherits a persistent session (subscriptions, unacknowledged RPC requests) nor
 * disconnects the device using it, while the owner gets its session back. And a last will is
 * published only when a device goes away unexpectedly, not when the server ends its session.
 */
import { describe, expect, it } from 'vitest';
import type { IClientOptions, MqttClient } from 'mqtt';
import { commandRoutes, type Command } from '../../server/contract/command.ts';
import { credentialsRoutes } from '../../server/contract/credentials.ts';
import { deviceRoutes, type Device } from '../../server/contract/device.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { EventBus, type Events } from '../../server/lib/event-bus.ts';
import { makeDeviceApp, type DeviceTestApp } from '../helpers/devices.ts';
import { closedBy, connectWatching, eventually, tokenOf, type Received } from '../helpers/mqtt.ts';

const RPC_FILTER = 'v1/devices/me/rpc/request/+';
const SHARED_ID = 'door-controller';

/** A session of `device` under `clientId`, persistent (clean=false) unless told, noting every message from the first one. */
async function connectAs(t: DeviceTestApp, device: Device, clientId: string, options: IClientOptions = {}) {
  return connectWatching(t.app, { username: await tokenOf(t.api, device.id), clientId, clean: false, ...options });
}

/** Keeps every QoS 1 message of `client` unacknowledged (mqtt.js sends the PUBACK once this calls back). */
function neverAcknowledge(client: MqttClient): void {
  client.handleMessage = () => undefined;
}

/** Drops the TCP connection without a DISCONNECT packet, as a device losing power does. */
async function drop(t: DeviceTestApp, client: MqttClient, deviceId: string): Promise<void> {
  const closed = closedBy(client);
  client.stream.destroy();
  await closed;
  await eventually(() => t.app.services!.transport!.isOnline(deviceId), (online) => !online);
}

/** One round trip on `client`'s connection: whatever the broker meant to send before has arrived. */
async function settled(client: MqttClient): Promise<void> {
  await client.publishAsync('v1/devices/me/telemetry', '{"sync":1}', { qos: 1 });
}

function unlockDoor(t: DeviceTestApp, deviceId: string): Promise<Command> {
  return t.api.ok(commandRoutes.send, {
    params: { id: deviceId },
    body: { commandType: 'CUSTOM', callType: 'ASYNC', way: 'twoway', content: '{"method":"unlockDoor","params":{"pin":"4711"}}' },
  });
}

/** Each RPC request with its id, which the topic carries (the body holds method and params only). */
function rpcRequests(messages: Received[]): unknown[] {
  const prefix = 'v1/devices/me/rpc/request/';
  return messages.filter((m) => m.topic.startsWith(prefix)).map((m) => ({ id: Number(m.topic.slice(prefix.length)), ...(JSON.parse(m.payload) as object) }));
}

describe('MQTT sessions belong to their device', () => {
  it('gives another device presenting the same client ID no session and none of the pending RPC requests, and the owner gets them back', async () => {
    const t = await makeDeviceApp();
    const owner = await t.api.createDevice();
    const intruder = await t.api.createDevice();
    const first = await connectAs(t, owner, SHARED_ID);
    await first.client.subscribeAsync(RPC_FILTER, { qos: 1 });
    neverAcknowledge(first.client);
    const command = await unlockDoor(t, owner.id);
    await eventually(() => rpcRequests(first.messages).length, (n) => n === 1);
    await drop(t, first.client, owner.id);

    const other = await connectAs(t, intruder, SHARED_ID);
    await settled(other.client);
    expect(other.sessionPresent).toBe(false);
    expect(other.messages).toEqual([]);
    await other.client.endAsync();

    const back = await connectAs(t, owner, SHARED_ID);
    expect(back.sessionPresent).toBe(true);
    const [request] = await eventually(() => rpcRequests(back.messages), (r) => r.length === 1);
    expect(request).toEqual({ id: command.requestId, method: 'unlockDoor', params: { pin: '4711' } });
  });

  it('leaves a connected device connected when another device presents its client ID, and sends each its own RPC requests', async () => {
    const t = await makeDeviceApp();
    const owner = await t.api.createDevice();
    const intruder = await t.api.createDevice();
    const first = await connectAs(t, owner, SHARED_ID, { clean: true });
    await first.client.subscribeAsync(RPC_FILTER, { qos: 1 });
    let kicked = false;
    first.client.on('close', () => (kicked = true));

    for (const clean of [true, false, true]) {
      const other = await connectAs(t, intruder, SHARED_ID, { clean });
      await other.client.subscribeAsync(RPC_FILTER, { qos: 1 });
      await settled(other.client);
      // A connection the broker closes would never settle.
      await Promise.race([settled(first.client), closedBy(first.client)]);
      expect(kicked).toBe(false);
      await other.client.endAsync();
    }
    expect(t.app.services!.transport!.isOnline(owner.id)).toBe(true);

    const second = await connectAs(t, intruder, SHARED_ID, { clean: true });
    await second.client.subscribeAsync(RPC_FILTER, { qos: 1 });
    const forOwner = await unlockDoor(t, owner.id);
    const forIntruder = await unlockDoor(t, intruder.id);
    await eventually(() => rpcRequests(first.messages).length + rpcRequests(second.messages).length, (n) => n === 2);
    expect(rpcRequests(first.messages)).toEqual([expect.objectContaining({ id: forOwner.requestId })]);
    expect(rpcRequests(second.messages)).toEqual([expect.objectContaining({ id: forIntruder.requestId })]);
    expect(kicked).toBe(false);
  });

  it('still lets a device take its own client ID over from its previous connection', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const stale = await connectAs(t, device, SHARED_ID);
    await stale.client.subscribeAsync(RPC_FILTER, { qos: 1 });
    const closed = closedBy(stale.client);
    const fresh = await connectAs(t, device, SHARED_ID);
    await closed;
    expect(fresh.sessionPresent).toBe(true);
    await settled(fresh.client);
    expect(t.app.services!.transport!.isOnline(device.id)).toBe(true);
  });

  it('gives a sub-device presenting its gateway’s client ID neither the gateway’s session nor its pending requests, nor disconnects the gateway', async () => {
    const t = await makeDeviceApp();
    const gateway = await t.api.createDevice({ deviceType: 'GATEWAY' });
    const sensorProduct = await t.api.createProduct({ deviceType: 'SENSOR' });
    const sensor = await t.api.createDevice({ deviceType: 'SENSOR', deviceProfileId: sensorProduct.id, gatewayId: gateway.id });
    const gatewayRpc = (messages: Received[]) => messages.filter((m) => m.topic === 'v1/gateway/rpc').map((m) => JSON.parse(m.payload) as unknown);

    const gw = await connectAs(t, gateway, 'gw-1');
    await gw.client.subscribeAsync('v1/gateway/rpc', { qos: 1 });
    await gw.client.publishAsync('v1/gateway/connect', JSON.stringify({ device: sensor.name }), { qos: 1 });
    let kicked = false;
    gw.client.on('close', () => (kicked = true));
    const whileConnected = await connectAs(t, sensor, 'gw-1');
    await settled(whileConnected.client);
    expect(whileConnected.sessionPresent).toBe(false);
    await Promise.race([settled(gw.client), closedBy(gw.client)]);
    expect(kicked).toBe(false);
    await whileConnected.client.endAsync();

    neverAcknowledge(gw.client);
    const command = await unlockDoor(t, sensor.id);
    await eventually(() => gatewayRpc(gw.messages).length, (n) => n === 1);
    await drop(t, gw.client, gateway.id);

    const sub = await connectAs(t, sensor, 'gw-1');
    await settled(sub.client);
    expect(sub.sessionPresent).toBe(false);
    expect(sub.messages).toEqual([]);
    await sub.client.endAsync();

    const back = await connectAs(t, gateway, 'gw-1');
    expect(back.sessionPresent).toBe(true);
    const [request] = await eventually(() => gatewayRpc(back.messages), (r) => r.length === 1);
    expect(request).toEqual({ device: sensor.name, data: { id: command.requestId, method: 'unlockDoor', params: { pin: '4711' } } });
  });
});

describe('MQTT persistent sessions', () => {
  it('marks an RPC request resent to a resumed session DELIVERED when the device acknowledges the resent copy', async () => {
    const bus = new EventBus();
    const delivered = record(bus, 'device.rpcDelivered');
    const t = await makeDeviceApp({ bus });
    const device = await t.api.createDevice();
    const first = await connectAs(t, device, 'valve');
    await first.client.subscribeAsync(RPC_FILTER, { qos: 1 });
    neverAcknowledge(first.client);
    const command = await unlockDoor(t, device.id);
    await eventually(() => rpcRequests(first.messages).length, (n) => n === 1);
    await drop(t, first.client, device.id);

    const back = await connectAs(t, device, 'valve');
    await eventually(() => rpcRequests(back.messages).length, (n) => n === 1);
    await settled(back.client);
    expect(delivered).toEqual([{ deviceId: device.id, requestId: command.requestId }]);
  });

  it('drops a deleted device’s sessions from memory', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const { client } = await connectAs(t, device, 'kept');
    await client.subscribeAsync(RPC_FILTER, { qos: 1 });
    await drop(t, client, device.id);
    expect(t.app.services!.transport!.mqttSessionCount).toBe(1);
    await t.api.ok(deviceRoutes.delete, { body: { ids: [device.id] } });
    expect(t.app.services!.transport!.mqttSessionCount).toBe(0);
  });
});

/** Collects every payload of `event` emitted on `bus`. */
function record<K extends keyof Events>(bus: EventBus, event: K): Events[K][] {
  const seen: Events[K][] = [];
  bus.on(event, (payload) => seen.push(payload));
  return seen;
}

const WILL: IClientOptions['will'] = { topic: 'v1/devices/me/telemetry', payload: Buffer.from('{"lastWill":1}'), qos: 1, retain: false };

describe('MQTT last will', () => {
  it('stores the will of a device whose connection drops unexpectedly', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const { client } = await connectAs(t, device, 'willing', { clean: true, will: WILL });
    await drop(t, client, device.id);
    const keys = await eventually(() => t.api.ok(telemetryRoutes.timeseriesKeys, { params: { id: device.id } }), (k) => k.length > 0);
    expect(keys).toEqual(['lastWill']);
  });

  it('drops the will of a device the server disconnects because its credentials were regenerated', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const { client } = await connectAs(t, device, 'willing', { clean: true, will: WILL });
    const closed = closedBy(client);
    await t.api.ok(credentialsRoutes.regenerate, { params: { id: device.id } });
    await closed;
    // A message stored after the will would have been: both go through the same ordered batches.
    const fresh = await connectAs(t, device, 'willing', { clean: true });
    await fresh.client.publishAsync('v1/devices/me/telemetry', '{"after":1}', { qos: 1 });
    expect(await t.api.ok(telemetryRoutes.timeseriesKeys, { params: { id: device.id } })).toEqual(['after']);
  });

  it('drops the will of a device the server disconnects because it was deleted', async () => {
    const bus = new EventBus();
    const stored = record(bus, 'telemetry.stored');
    const t = await makeDeviceApp({ bus });
    const device = await t.api.createDevice();
    const witness = await t.api.createDevice();
    const { client } = await connectAs(t, device, 'willing', { clean: true, will: WILL });
    const closed = closedBy(client);
    await t.api.ok(deviceRoutes.delete, { body: { ids: [device.id] } });
    await closed;
    const other = await connectAs(t, witness, 'witness', { clean: true });
    await other.client.publishAsync('v1/devices/me/telemetry', '{"after":1}', { qos: 1 });
    await eventually(() => stored.some((s) => s.deviceId === witness.id), Boolean);
    expect(stored.filter((s) => s.deviceId === device.id)).toEqual([]);
  });

  it('drops the wills of connected devices when the server shuts down', async () => {
    const bus = new EventBus();
    const stored = record(bus, 'telemetry.stored');
    const t = await makeDeviceApp({ bus });
    const device = await t.api.createDevice();
    await connectAs(t, device, 'willing', { clean: true, will: WILL });
    await t.app.close();
    expect(stored).toEqual([]);
  });
});
