/**
 * A GATEWAY adds its sub-devices as ThingsBoard's IoT Gateway expects: `v1/gateway/connect`
 * `{ device, type }` or data for a new name creates a SENSOR attached to it, with the product named
 * by `type` (`default` when none), through the device module (events, counts, the licence).
 */
import type { MqttClient } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { deviceRoutes, type Device } from '../../server/contract/device.ts';
import { productRoutes } from '../../server/contract/product.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { EventBus, type Events } from '../../server/lib/event-bus.ts';
import { capturedLog } from '../helpers/captured-log.ts';
import { makeDeviceApp, type DeviceTestApp } from '../helpers/devices.ts';
import { issueLicense, testLicenseKeys } from '../helpers/license.ts';
import { connectDevice, tokenOf } from '../helpers/mqtt.ts';
import { activate } from '../helpers/setup.ts';

async function publishJson(client: MqttClient, topic: string, body: unknown): Promise<void> {
  await client.publishAsync(topic, JSON.stringify(body), { qos: 1 });
}

/** A connected GATEWAY in an organization, as the thingsboard-gateway connects. */
async function connectedGateway(t: DeviceTestApp) {
  const organization = await t.api.createOrganization();
  const gateway = await t.api.createDevice({ deviceType: 'GATEWAY', name: 'Gateway_A', organizationId: organization.id });
  const client = await connectDevice(t.app, { username: await tokenOf(t.api, gateway.id) });
  return { gateway, client, organization };
}

async function deviceNamed(t: DeviceTestApp, name: string): Promise<Device | undefined> {
  const page = await t.api.ok(deviceRoutes.list, { query: { name, pageSize: 100 } });
  return page.items.find((d) => d.name === name);
}

describe('gateway sub-devices', () => {
  it('creates a sub-device on connect with the product named by type, attached to the gateway in its organization', async () => {
    const bus = new EventBus();
    const created: Events['device.created'][] = [];
    bus.on('device.created', (e) => created.push(e));
    const t = await makeDeviceApp({ bus });
    const { gateway, client, organization } = await connectedGateway(t);

    await publishJson(client, 'v1/gateway/connect', { device: 'Device A', type: 'Thermometer Model.2' });

    const device = await deviceNamed(t, 'Device A');
    expect(device).toMatchObject({
      name: 'Device A',
      deviceType: 'SENSOR',
      gatewayId: gateway.id,
      organizationId: organization.id,
      productName: 'Thermometer Model.2',
      transportType: 'MQTT',
      deviceState: 'ONLINE',
    });
    const product = await t.api.ok(productRoutes.get, { params: { id: device!.deviceProfileId } });
    expect(product).toMatchObject({ deviceType: 'SENSOR', transportType: 'MQTT', status: 'DRAFT', deviceCount: 1 });
    expect(created).toContainEqual({ deviceId: device!.id, deviceProfileId: product.id });
  });

  it('creates a sub-device that first appears in telemetry with the default product and stores its values', async () => {
    const t = await makeDeviceApp();
    const { gateway, client } = await connectedGateway(t);

    await publishJson(client, 'v1/gateway/telemetry', { 'plc:7/line 1.temp': [{ ts: 1_000, values: { temperature: 21.5 } }] });

    const device = await deviceNamed(t, 'plc:7/line 1.temp');
    expect(device).toMatchObject({ productName: 'default', gatewayId: gateway.id, deviceType: 'SENSOR' });
    const history = await t.api.ok(telemetryRoutes.timeseries, { params: { id: device!.id }, query: { keys: 'temperature', startTs: 0 } });
    expect(history.temperature).toEqual([{ ts: 1_000, value: 21.5 }]);
  });

  it('uses one product for every sub-device of the same type and finds an existing sub-device instead of creating it again', async () => {
    const t = await makeDeviceApp();
    const { client } = await connectedGateway(t);
    await publishJson(client, 'v1/gateway/connect', { device: 'Meter 1', type: 'meter' });
    await publishJson(client, 'v1/gateway/connect', { device: 'Meter 2', type: 'meter' });
    await publishJson(client, 'v1/gateway/disconnect', { device: 'Meter 1' });
    await publishJson(client, 'v1/gateway/connect', { device: 'Meter 1', type: 'meter' });
    await publishJson(client, 'v1/gateway/attributes', { 'Meter 1': { firmware: '1.0' } });

    expect((await t.api.ok(deviceRoutes.list, { query: { name: 'Meter' } })).total).toBe(2);
    const products = await t.api.ok(productRoutes.list, { query: { name: 'meter' } });
    expect(products.items.map((p) => [p.name, p.deviceCount])).toEqual([['meter', 2]]);
  });

  it('refuses a sub-device past the licence’s device limit with a logged reason and stores the rest of the message', async () => {
    const log = capturedLog('info');
    const t = await makeDeviceApp({ logger: log.logger });
    const licFile = issueLicense({ privateKeyPem: testLicenseKeys().privateKeyPem, maxDevices: 2, days: 60 });
    expect((await activate(t, { licFile, token: t.api.token! })).statusCode).toBe(200);
    const { client } = await connectedGateway(t);
    await publishJson(client, 'v1/gateway/telemetry', { 'Sensor one': [{ t: 1 }], 'Sensor two': [{ t: 2 }] });

    const stored = await deviceNamed(t, 'Sensor one');
    expect((await t.api.ok(telemetryRoutes.timeseries, { params: { id: stored!.id } })).t?.[0]?.value).toBe(1);
    expect(await deviceNamed(t, 'Sensor two')).toBeUndefined();
    expect((await t.api.ok(deviceRoutes.list, {})).total).toBe(2);
    expect(t.app.services!.transport!.statsSnapshot().refused['error.license.deviceLimit']).toBe(1);
    expect(log.lines()).toContainEqual(expect.objectContaining({ device: 'Sensor two', reason: 'error.license.deviceLimit', msg: 'gateway entry refused' }));
    expect(client.connected).toBe(true);
  });

  it('creates the new name of a message and still refuses a name held by a device that is not this gateway’s sub-device', async () => {
    const t = await makeDeviceApp();
    const direct = await t.api.createDevice({ name: 'Direct_1' });
    const { client } = await connectedGateway(t);
    await publishJson(client, 'v1/gateway/telemetry', { Direct_1: [{ ok: 1 }], 'New sensor': [{ ok: 2 }] });
    expect(await t.api.ok(telemetryRoutes.timeseriesKeys, { params: { id: direct.id } })).toEqual([]);
    expect((await t.api.ok(deviceRoutes.get, { params: { id: direct.id } })).gatewayId).toBeNull();
    const created = await deviceNamed(t, 'New sensor');
    expect((await t.api.ok(telemetryRoutes.timeseries, { params: { id: created!.id } })).ok?.[0]?.value).toBe(2);
    expect(t.app.services!.transport!.statsSnapshot().refused['error.transport.gatewayForeignDevice']).toBe(1);
  });

  it('refuses a type that names a product of another device type, creating nothing', async () => {
    const t = await makeDeviceApp();
    await t.api.createProduct({ name: 'Direct_Product', deviceType: 'DIRECT_CONNECTION' });
    const { client } = await connectedGateway(t);
    await publishJson(client, 'v1/gateway/connect', { device: 'Pump 3', type: 'Direct_Product' });
    expect(await deviceNamed(t, 'Pump 3')).toBeUndefined();
    expect(t.app.services!.transport!.statsSnapshot().refused['error.subDevice.productNotSensor']).toBe(1);
  });
});
