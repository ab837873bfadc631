/**
 * Names devices report keep their spelling (spaces, dots, colons, slashes): shown and searched as
 * they are, edited through an alias, and sent back unchanged on an edit. The typed-name rule holds
 * for a new name a person gives.
 */
import { describe, expect, it } from 'vitest';
import { deviceRoutes, type Device } from '../../server/contract/device.ts';
import { productRoutes } from '../../server/contract/product.ts';
import { makeDeviceApp, type DeviceTestApp } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';
import { connectDevice, tokenOf } from '../helpers/mqtt.ts';

const REPORTED = 'Device A: line.1/plc 2';

/** A sub-device a gateway reported as `name`, with the product named `type`. */
async function reportedDevice(t: DeviceTestApp, name: string, type: string): Promise<Device> {
  const gateway = await t.api.createDevice({ deviceType: 'GATEWAY' });
  const client = await connectDevice(t.app, { username: await tokenOf(t.api, gateway.id) });
  await client.publishAsync('v1/gateway/connect', JSON.stringify({ device: name, type }), { qos: 1 });
  const page = await t.api.ok(deviceRoutes.list, { query: { name } });
  expect(page.items.map((d) => d.name)).toEqual([name]);
  return page.items[0]!;
}

/** The update body of `device` as the console's form sends it back. */
function editBody(device: Device, changes: Partial<Device> = {}) {
  const d = { ...device, ...changes };
  return { id: d.id, name: d.name, alias: d.alias, deviceType: d.deviceType, deviceProfileId: d.deviceProfileId, gatewayId: d.gatewayId, organizationId: d.organizationId };
}

describe('reported device names', () => {
  it('keeps a reported name through reading, searching and an edit that gives it an alias, found by the alias too', async () => {
    const t = await makeDeviceApp();
    const device = await reportedDevice(t, REPORTED, 'meter');
    expect((await t.api.ok(deviceRoutes.get, { params: { id: device.id } })).name).toBe(REPORTED);
    expect((await t.api.ok(deviceRoutes.list, { query: { name: 'A: line.1/' } })).items.map((d) => d.id)).toEqual([device.id]);

    const edited = await t.api.ok(deviceRoutes.update, { body: editBody(device, { alias: '锅炉 1号' }) });
    expect(edited).toMatchObject({ name: REPORTED, alias: '锅炉 1号' });
    expect((await t.api.ok(deviceRoutes.list, { query: { name: '锅炉' } })).items.map((d) => d.name)).toEqual([REPORTED]);
  });

  it('holds a changed name to the typed-name rule while the reported one passes unchanged', async () => {
    const t = await makeDeviceApp();
    const device = await reportedDevice(t, REPORTED, 'meter');
    const renamed = await t.api.call(deviceRoutes.update, { body: editBody(device, { name: 'Device B: line.1' }) });
    expect(expectError(renamed, 400, 31, 'error.field.name').details).toEqual([expect.objectContaining({ field: 'body.name' })]);
    expect(await t.api.ok(deviceRoutes.update, { body: editBody(device, { name: 'Boiler_1' }) })).toMatchObject({ name: 'Boiler_1' });
  });

  it('lets the product a gateway named by its type be edited with that name unchanged', async () => {
    const t = await makeDeviceApp();
    const device = await reportedDevice(t, 'pump 1', 'Pump type.2 / rev:B');
    const product = await t.api.ok(productRoutes.get, { params: { id: device.deviceProfileId } });
    const body = { id: product.id, name: product.name, deviceType: product.deviceType, transportType: product.transportType, description: 'Pumps of hall 2' };
    expect(await t.api.ok(productRoutes.update, { body })).toMatchObject({ name: 'Pump type.2 / rev:B', description: 'Pumps of hall 2' });
    expect((await t.api.ok(productRoutes.list, { query: { name: 'type.2 / rev' } })).total).toBe(1);
  });
});
