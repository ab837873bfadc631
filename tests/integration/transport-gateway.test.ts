import { describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { deviceRoutes } from '../../server/contract/device.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { EventBus, type Events } from '../../server/lib/event-bus.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';

function record<K extends keyof Events>(bus: EventBus, event: K): Events[K][] {
  const seen: Events[K][] = [];
  bus.on(event, (payload) => seen.push(payload));
  return seen;
}

async function publishJson(client: MqttClient, topic: string, body: unknown): Promise<void> {
  await client.publishAsync(topic, JSON.stringify(body), { qos: 1 });
}

/** A connected GATEWAY with two SENSORs attached, a SENSOR of another gateway and a direct device. */
async function gatewayWithSensors(bus = new EventBus()) {
  const t = await makeDeviceApp({ bus });
  const gateway = await t.api.createDevice({ deviceType: 'GATEWAY', name: 'Gateway_A' });
  const otherGateway = await t.api.createDevice({ deviceType: 'GATEWAY', name: 'Gateway_B' });
  const sensorProduct = await t.api.createProduct({ deviceType: 'SENSOR' });
  const sensor = (name: string, gatewayId: string) =>
    t.api.createDevice({ deviceType: 'SENSOR', deviceProfileId: sensorProduct.id, gatewayId, name });
  const a = await sensor('Sensor_A', gateway.id);
  const b = await sensor('Sensor_B', gateway.id);
  const foreign = await sensor('Sensor_Other', otherGateway.id);
  const direct = await t.api.createDevice({ name: 'Direct_1' });
  const client = await connectDevice(t.app, { username: await tokenOf(t.api, gateway.id) });
  return { ...t, bus, gateway, a, b, foreign, direct, client };
}

describe('gateway topics', () => {
  it('marks a sub-device ONLINE on connect and OFFLINE on disconnect', async () => {
    const { api, a, client } = await gatewayWithSensors();
    await publishJson(client, 'v1/gateway/connect', { device: 'Sensor_A' });
    expect((await api.ok(deviceRoutes.get, { params: { id: a.id } })).deviceState).toBe('ONLINE');
    await publishJson(client, 'v1/gateway/disconnect', { device: 'Sensor_A' });
    expect((await api.ok(deviceRoutes.get, { params: { id: a.id } })).deviceState).toBe('OFFLINE');
  });

  it('stores telemetry and attributes for its sub-devices in ThingsBoard’s format', async () => {
    const { api, a, b, client } = await gatewayWithSensors();
    await publishJson(client, 'v1/gateway/connect', { device: 'Sensor_A' });
    await publishJson(client, 'v1/gateway/telemetry', {
      Sensor_A: [{ ts: 1_000, values: { temperature: 20 } }, { ts: 2_000, values: { temperature: 21 } }],
      Sensor_B: [{ humidity: 55 }],
    });
    await publishJson(client, 'v1/gateway/attributes', { Sensor_A: { model: 'T-100' } });
    const history = await api.ok(telemetryRoutes.timeseries, { params: { id: a.id }, query: { keys: 'temperature', startTs: 0, orderBy: 'ASC' } });
    expect(history.temperature).toEqual([{ ts: 1_000, value: 20 }, { ts: 2_000, value: 21 }]);
    expect((await api.ok(telemetryRoutes.timeseries, { params: { id: b.id } })).humidity?.[0]?.value).toBe(55);
    expect(await api.ok(telemetryRoutes.attributes, { params: { id: a.id } })).toMatchObject([{ key: 'model', value: 'T-100' }]);
    // Reporting connects a sub-device implicitly, as in ThingsBoard.
    expect((await api.ok(deviceRoutes.get, { params: { id: b.id } })).deviceState).toBe('ONLINE');
  });

  it('refuses entries for another gateway’s sensor and a direct device, and stores the rest', async () => {
    const { app, api, a, foreign, direct, client } = await gatewayWithSensors();
    await publishJson(client, 'v1/gateway/telemetry', {
      Sensor_A: [{ ok: 1 }],
      Sensor_Other: [{ ok: 1 }],
      Direct_1: [{ ok: 1 }],
    });
    expect((await api.ok(telemetryRoutes.timeseries, { params: { id: a.id } })).ok?.[0]?.value).toBe(1);
    for (const id of [foreign.id, direct.id]) expect(await api.ok(telemetryRoutes.timeseriesKeys, { params: { id } })).toEqual([]);
    const { refused } = app.services!.transport!.statsSnapshot();
    expect(refused['error.transport.gatewayForeignDevice']).toBe(2);
    expect(client.connected).toBe(true);
  });

  it('refuses a disconnect or an RPC answer for a name no device has, creating nothing', async () => {
    const { app, api, client } = await gatewayWithSensors();
    await publishJson(client, 'v1/gateway/disconnect', { device: 'Nobody' });
    await publishJson(client, 'v1/gateway/rpc', { device: 'Nobody', id: 1, data: {} });
    expect(app.services!.transport!.statsSnapshot().refused['error.transport.gatewayUnknownDevice']).toBe(2);
    expect((await api.ok(deviceRoutes.list, { query: { name: 'Nobody' } })).total).toBe(0);
  });

  it('takes sub-devices OFFLINE when the gateway disconnects', async () => {
    const { api, a, b, client } = await gatewayWithSensors();
    await publishJson(client, 'v1/gateway/connect', { device: 'Sensor_A' });
    await publishJson(client, 'v1/gateway/connect', { device: 'Sensor_B' });
    await client.endAsync();
    for (const id of [a.id, b.id]) {
      await eventually(() => api.ok(deviceRoutes.get, { params: { id } }), (d) => d.deviceState === 'OFFLINE');
    }
  });

  it('relays a server RPC for a sub-device through the gateway and takes its answer', async () => {
    const bus = new EventBus();
    const answers = record(bus, 'device.rpcResponse');
    const { app, a, client } = await gatewayWithSensors(bus);
    await client.subscribeAsync('v1/gateway/rpc', { qos: 1 });
    await publishJson(client, 'v1/gateway/connect', { device: 'Sensor_A' });
    const request = new Promise<[string, unknown]>((resolve) => client.once('message', (topic, body) => resolve([topic, JSON.parse(body.toString())])));
    expect(app.services!.transport!.sendRpc(a.id, 3, 'setInterval', { seconds: 10 })).toBe(true);
    expect(await request).toEqual(['v1/gateway/rpc', { device: 'Sensor_A', data: { id: 3, method: 'setInterval', params: { seconds: 10 } } }]);
    await publishJson(client, 'v1/gateway/rpc', { device: 'Sensor_A', id: 3, data: { success: true } });
    expect(answers).toEqual([{ deviceId: a.id, requestId: 3, payload: { success: true } }]);
  });

  it('does not let a direct device use gateway topics', async () => {
    const { app, api, direct } = await gatewayWithSensors();
    const client = await connectDevice(app, { username: await tokenOf(api, direct.id) });
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish('v1/gateway/connect', JSON.stringify({ device: 'Sensor_A' }));
    await closed;
    expect(app.services!.transport!.statsSnapshot().refused.topic).toBe(1);
  });
});
