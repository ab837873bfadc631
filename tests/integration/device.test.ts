import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { categoryRoutes } from '../../server/contract/category.ts';
import { credentialsRoutes } from '../../server/contract/credentials.ts';
import { deviceImportRoutes } from '../../server/contract/device-import.ts';
import { deviceRoutes, type Device } from '../../server/contract/device.ts';
import { organizationRoutes } from '../../server/contract/organization.ts';
import { productRoutes } from '../../server/contract/product.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { makeDeviceApp, type DeviceApi } from '../helpers/devices.ts';
import { migrations } from '../../server/app.ts';

async function refusal(api: DeviceApi, body: Record<string, unknown>): Promise<{ status: number; key: string; field: string | undefined }> {
  const res = await api.call(deviceRoutes.create, { body });
  const json = res.json();
  return { status: res.statusCode, key: json.key, field: json.details?.[0]?.field };
}

async function names(api: DeviceApi, query: Record<string, string | number | boolean>): Promise<string[]> {
  return (await api.ok(deviceRoutes.list, { query: { pageSize: 100, ...query } })).items.map((d: Device) => d.name);
}

describe('devices', () => {
  it('creates an INACTIVE private device with its product and organization names', async () => {
    const { api } = await makeDeviceApp();
    const org = await api.createOrganization({ name: 'Plant' });
    const product = await api.createProduct({ name: 'Meter' });
    const device = await api.createDevice({
      name: '电表_01',
      alias: ' Kitchen meter ',
      deviceProfileId: product.id,
      organizationId: org.id,
      label: 'floor-1',
      description: 'by the door',
    });
    expect(device).toMatchObject({
      name: '电表_01',
      alias: 'Kitchen meter',
      deviceType: 'DIRECT_CONNECTION',
      deviceProfileId: product.id,
      productName: 'Meter',
      transportType: 'MQTT',
      organizationId: org.id,
      organizationName: 'Plant',
      gatewayId: null,
      gatewayName: null,
      label: 'floor-1',
      deviceState: 'INACTIVE',
      isPublic: false,
      isCollect: false,
      lastOnlineTime: null,
      longitude: null,
      latitude: null,
    });
    expect(device.id).toEqual(expect.any(String));
    expect(device.createdTime).toBeGreaterThan(0);
    expect(await api.ok(deviceRoutes.get, { params: { id: device.id } })).toEqual(device);
  });

  it('accepts a name of 30 characters and refuses one of 31', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    await api.createDevice({ deviceProfileId: product.id, name: 'n'.repeat(30) });
    expect(await refusal(api, { name: 'n'.repeat(31), deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id })).toEqual({
      status: 400,
      key: 'error.field.name',
      field: 'body.name',
    });
  });

  it.each(['with space', 'dot.name', 'slash/name', '#hash'])('refuses the name %j', async (name) => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    expect((await refusal(api, { name, deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id })).key).toBe('error.field.name');
  });

  it('refuses a name another device has', async () => {
    const { api } = await makeDeviceApp();
    const first = await api.createDevice({ name: 'twin' });
    expect(await refusal(api, { name: 'twin', deviceType: 'DIRECT_CONNECTION', deviceProfileId: first.deviceProfileId })).toEqual({
      status: 400,
      key: 'error.device.nameTaken',
      field: 'body.name',
    });
  });

  it('accepts alias and label of 36 characters and refuses 37', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    await api.createDevice({ deviceProfileId: product.id, alias: 'a'.repeat(36), label: 'l'.repeat(36) });
    const base = { name: 'x', deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id };
    expect(await refusal(api, { ...base, alias: 'a'.repeat(37) })).toMatchObject({ key: 'error.field.alias', field: 'body.alias' });
    expect(await refusal(api, { ...base, label: 'l'.repeat(37) })).toMatchObject({ key: 'error.field.label', field: 'body.label' });
  });

  it('stores an address code upper case and refuses codes outside 00-FF', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    expect((await api.createDevice({ deviceProfileId: product.id, addressCode: '0A' })).addressCode).toBe('0A');
    expect((await api.createDevice({ deviceProfileId: product.id, addressCode: 'ff' })).addressCode).toBe('FF');
    for (const addressCode of ['1G', '100', 'F', '']) {
      expect(await refusal(api, { name: 'x', deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id, addressCode })).toMatchObject({
        key: 'error.field.addressCode',
        field: 'body.addressCode',
      });
    }
  });

  it('accepts the coordinate bounds and refuses values past them or a coordinate alone', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    const placed = await api.createDevice({ deviceProfileId: product.id, longitude: -180, latitude: 90, address: 'Pole' });
    expect(placed).toMatchObject({ longitude: -180, latitude: 90, address: 'Pole' });
    const base = { name: 'x', deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id };
    expect(await refusal(api, { ...base, longitude: 180.5, latitude: 0 })).toMatchObject({ key: 'error.field.longitude', field: 'body.longitude' });
    expect(await refusal(api, { ...base, longitude: 0, latitude: -90.1 })).toMatchObject({ key: 'error.field.latitude', field: 'body.latitude' });
    expect(await refusal(api, { ...base, longitude: 12 })).toMatchObject({ key: 'error.field.locationIncomplete', field: 'body.latitude' });
  });

  it('takes the device type from the product and refuses another', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct({ deviceType: 'GATEWAY' });
    expect((await api.createDevice({ deviceProfileId: product.id, deviceType: 'GATEWAY' })).deviceType).toBe('GATEWAY');
    const res = await api.call(deviceRoutes.create, { body: { name: 'x', deviceType: 'SENSOR', deviceProfileId: product.id }, lang: 'en-US' });
    expect(res.json()).toMatchObject({ key: 'error.device.typeMismatch', details: [{ field: 'body.deviceType' }] });
    expect(res.json().message).toContain('GATEWAY');
  });

  it('refuses an unknown product or organization', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    expect(await refusal(api, { name: 'x', deviceType: 'DIRECT_CONNECTION', deviceProfileId: 'nope' })).toMatchObject({
      key: 'error.device.productNotFound',
      field: 'body.deviceProfileId',
    });
    expect(await refusal(api, { name: 'x', deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id, organizationId: 'nope' })).toMatchObject({
      key: 'error.device.organizationNotFound',
      field: 'body.organizationId',
    });
  });

  it('attaches a sensor to a gateway and names the gateway', async () => {
    const { api } = await makeDeviceApp();
    const gateway = await api.createDevice({ name: 'gw', deviceType: 'GATEWAY' });
    const sensor = await api.createDevice({ name: 'temp', deviceType: 'SENSOR', gatewayId: gateway.id });
    expect(sensor).toMatchObject({ gatewayId: gateway.id, gatewayName: 'gw' });
    expect(await names(api, { gatewayId: gateway.id })).toEqual(['temp']);
  });

  it('refuses a gateway on a device that is not a sensor, and a gateway that is missing or not a gateway', async () => {
    const { api } = await makeDeviceApp();
    const direct = await api.createDevice({ name: 'direct' });
    const sensorProduct = await api.createProduct({ deviceType: 'SENSOR' });
    const gateway = await api.createDevice({ deviceType: 'GATEWAY' });
    expect(await refusal(api, { name: 'x', deviceType: 'DIRECT_CONNECTION', deviceProfileId: direct.deviceProfileId, gatewayId: gateway.id })).toMatchObject({
      key: 'error.device.gatewayNotAllowed',
      field: 'body.gatewayId',
    });
    const sensor = { name: 'x', deviceType: 'SENSOR', deviceProfileId: sensorProduct.id };
    expect((await refusal(api, { ...sensor, gatewayId: 'nope' })).key).toBe('error.device.gatewayNotFound');
    expect((await refusal(api, { ...sensor, gatewayId: direct.id })).key).toBe('error.device.gatewayNotGateway');
  });

  it('edits a device without touching its state, favourite flag or credentials', async () => {
    const { api } = await makeDeviceApp();
    const device = await api.createDevice({ name: 'before', alias: 'old' });
    await api.ok(deviceRoutes.collect, { params: { id: device.id }, body: { isCollect: true } });
    const token = (await api.ok(credentialsRoutes.get, { params: { id: device.id } })).credentialsId;
    const edited = await api.ok(deviceRoutes.update, {
      body: { id: device.id, name: 'after', deviceType: 'DIRECT_CONNECTION', deviceProfileId: device.deviceProfileId, isPublic: true },
    });
    expect(edited).toMatchObject({ name: 'after', alias: null, isPublic: true, isCollect: true, deviceState: 'INACTIVE' });
    expect((await api.ok(credentialsRoutes.get, { params: { id: device.id } })).credentialsId).toBe(token);
  });

  it('keeps its own name on edit but refuses another device name', async () => {
    const { api } = await makeDeviceApp();
    const a = await api.createDevice({ name: 'a' });
    await api.createDevice({ name: 'b', deviceProfileId: a.deviceProfileId });
    const body = { id: a.id, deviceType: 'DIRECT_CONNECTION' as const, deviceProfileId: a.deviceProfileId };
    await api.ok(deviceRoutes.update, { body: { ...body, name: 'a' } });
    const res = await api.call(deviceRoutes.update, { body: { ...body, name: 'b' } });
    expect(res.json().key).toBe('error.device.nameTaken');
  });

  it('answers 404 code 32 for an unknown device on every single-device call', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    const params = { id: 'missing' };
    for (const res of [
      await api.call(deviceRoutes.get, { params }),
      await api.call(deviceRoutes.update, { body: { id: 'missing', name: 'x', deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id } }),
      await api.call(deviceRoutes.collect, { params, body: { isCollect: true } }),
      await api.call(deviceRoutes.public, { params, body: { isPublic: true } }),
      await api.call(deviceRoutes.location, { params, body: { longitude: null, latitude: null } }),
      await api.call(credentialsRoutes.get, { params }),
      await api.call(credentialsRoutes.update, { params, body: { credentialsType: 'ACCESS_TOKEN' } }),
      await api.call(credentialsRoutes.regenerate, { params }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 32, key: 'error.notFound' });
    }
  });

  it('favourites and unfavourites a device, and filters favourites', async () => {
    const { api } = await makeDeviceApp();
    const liked = await api.createDevice({ name: 'liked' });
    await api.createDevice({ name: 'plain', deviceProfileId: liked.deviceProfileId });
    expect((await api.ok(deviceRoutes.collect, { params: { id: liked.id }, body: { isCollect: true } })).isCollect).toBe(true);
    expect(await names(api, { isCollect: true })).toEqual(['liked']);
    expect(await names(api, { isCollect: false })).toEqual(['plain']);
    expect((await api.ok(deviceRoutes.collect, { params: { id: liked.id }, body: { isCollect: false } })).isCollect).toBe(false);
    expect(await names(api, { isCollect: true })).toEqual([]);
  });

  it('makes a device public and private again', async () => {
    const { api } = await makeDeviceApp();
    const device = await api.createDevice();
    expect((await api.ok(deviceRoutes.public, { params: { id: device.id }, body: { isPublic: true } })).isPublic).toBe(true);
    expect((await api.ok(deviceRoutes.public, { params: { id: device.id }, body: { isPublic: false } })).isPublic).toBe(false);
  });

  it('sets and clears the location, refusing a coordinate alone or out of range', async () => {
    const { api } = await makeDeviceApp();
    const device = await api.createDevice();
    const params = { id: device.id };
    expect(await api.ok(deviceRoutes.location, { params, body: { longitude: 116.39, latitude: 39.9, address: '北京' } })).toMatchObject({
      longitude: 116.39,
      latitude: 39.9,
      address: '北京',
    });
    const alone = await api.call(deviceRoutes.location, { params, body: { longitude: 116.39, latitude: null } });
    expect(alone.json()).toMatchObject({ key: 'error.field.locationIncomplete', details: [{ field: 'body.latitude' }] });
    const far = await api.call(deviceRoutes.location, { params, body: { longitude: 200, latitude: 0 } });
    expect(far.json()).toMatchObject({ key: 'error.field.longitude' });
    expect(await api.ok(deviceRoutes.location, { params, body: { longitude: null, latitude: null } })).toMatchObject({
      longitude: null,
      latitude: null,
      address: null,
    });
  });

  it('filters by name or alias, state, type and product', async () => {
    const { api } = await makeDeviceApp();
    const gateway = await api.createDevice({ name: 'gw_1', deviceType: 'GATEWAY' });
    const meter = await api.createDevice({ name: 'meter_1', alias: 'boiler' });
    await api.createDevice({ name: 'meter_2', deviceProfileId: meter.deviceProfileId });
    expect(await names(api, { name: 'meter' })).toEqual(['meter_2', 'meter_1']);
    expect(await names(api, { name: 'BOIL' })).toEqual(['meter_1']);
    expect(await names(api, { name: 'r_' })).toEqual(['meter_2', 'meter_1']);
    expect(await names(api, { name: '%' })).toEqual([]);
    expect(await names(api, { deviceType: 'GATEWAY' })).toEqual(['gw_1']);
    expect(await names(api, { deviceProfileId: gateway.deviceProfileId })).toEqual(['gw_1']);
    expect(await names(api, { deviceState: 'INACTIVE' })).toHaveLength(3);
    expect(await names(api, { deviceState: 'ONLINE' })).toEqual([]);
  });

  it('filters ACTIVE as every device that has connected (ONLINE or OFFLINE)', async () => {
    const t = await makeDeviceApp();
    const online = await t.api.createDevice({ name: 'on' });
    const offline = await t.api.createDevice({ name: 'off', deviceProfileId: online.deviceProfileId });
    await t.api.createDevice({ name: 'never', deviceProfileId: online.deviceProfileId });
    // The transport moves states; here a second connection plays its part.
    const db = openDatabase(join(t.dataDir, 'edge.db'), migrations);
    db.prepare("UPDATE device SET device_state = 'ONLINE' WHERE id = ?").run(online.id);
    db.prepare("UPDATE device SET device_state = 'OFFLINE' WHERE id = ?").run(offline.id);
    db.close();
    expect(await names(t.api, { deviceState: 'ACTIVE' })).toEqual(['off', 'on']);
    expect(await names(t.api, { deviceState: 'ONLINE' })).toEqual(['on']);
    expect(await names(t.api, { deviceState: 'OFFLINE' })).toEqual(['off']);
  });

  it('filters by organization including its descendants', async () => {
    const { api } = await makeDeviceApp();
    const root = await api.createOrganization({ name: 'root' });
    const child = await api.createOrganization({ name: 'child', parentId: root.id });
    const grandchild = await api.createOrganization({ name: 'grandchild', parentId: child.id });
    const other = await api.createOrganization({ name: 'other' });
    const product = await api.createProduct();
    for (const [name, organizationId] of [
      ['at_root', root.id],
      ['at_child', child.id],
      ['at_grandchild', grandchild.id],
      ['elsewhere', other.id],
    ] as const) {
      await api.createDevice({ name, deviceProfileId: product.id, organizationId });
    }
    await api.createDevice({ name: 'nowhere', deviceProfileId: product.id });
    expect((await names(api, { organizationId: root.id })).sort()).toEqual(['at_child', 'at_grandchild', 'at_root']);
    expect((await names(api, { organizationId: child.id })).sort()).toEqual(['at_child', 'at_grandchild']);
    expect(await names(api, { organizationId: other.id })).toEqual(['elsewhere']);
  });

  it('sorts newest first by default and by a whitelisted column when asked', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    for (const name of ['b', 'c', 'a']) await api.createDevice({ name, deviceProfileId: product.id });
    expect(await names(api, {})).toEqual(['a', 'c', 'b']);
    expect(await names(api, { sortField: 'name', sortOrder: 'ascend' })).toEqual(['a', 'b', 'c']);
    expect(await names(api, { sortField: 'name', sortOrder: 'descend' })).toEqual(['c', 'b', 'a']);
    const res = await api.call(deviceRoutes.list, { query: { sortField: 'password' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ key: 'error.field.choice', details: [{ field: 'querystring.sortField' }] });
  });

  it('pages the list with the total of the filter', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    for (let i = 1; i <= 12; i++) await api.createDevice({ name: `d_${String(i).padStart(2, '0')}`, deviceProfileId: product.id });
    await api.createDevice({ name: 'other' });
    const first = await api.ok(deviceRoutes.list, { query: { deviceProfileId: product.id, sortField: 'name' } });
    expect(first.total).toBe(12);
    expect(first.items).toHaveLength(10);
    const second = await api.ok(deviceRoutes.list, { query: { deviceProfileId: product.id, sortField: 'name', page: 2 } });
    expect(second.items.map((d) => d.name)).toEqual(['d_11', 'd_12']);
    const beyond = await api.ok(deviceRoutes.list, { query: { page: 9 } });
    expect(beyond).toEqual({ items: [], total: 13 });
  });

  it('deletes devices in bulk with their credentials', async () => {
    const { api } = await makeDeviceApp();
    const a = await api.createDevice();
    const b = await api.createDevice({ deviceProfileId: a.deviceProfileId });
    const c = await api.createDevice({ deviceProfileId: a.deviceProfileId });
    expect(await api.ok(deviceRoutes.delete, { body: { ids: [a.id, b.id] } })).toEqual({ deleted: 2 });
    expect((await api.ok(deviceRoutes.list)).items.map((d) => d.id)).toEqual([c.id]);
    expect((await api.call(credentialsRoutes.get, { params: { id: a.id } })).statusCode).toBe(404);
  });

  it('refuses deleting a gateway that still has sensors, unless they go in the same call', async () => {
    const { api } = await makeDeviceApp();
    const gateway = await api.createDevice({ name: 'gw', deviceType: 'GATEWAY' });
    const sensor = await api.createDevice({ deviceType: 'SENSOR', gatewayId: gateway.id });
    const refused = await api.call(deviceRoutes.delete, { body: { ids: [gateway.id] }, lang: 'en-US' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 31, key: 'error.device.gatewayHasSensors' });
    expect(refused.json().message).toContain('gw');
    expect(await api.ok(deviceRoutes.delete, { body: { ids: [gateway.id, sensor.id] } })).toEqual({ deleted: 2 });
  });

  it('refuses an empty id list', async () => {
    const { api } = await makeDeviceApp();
    const res = await api.call(deviceRoutes.delete, { body: { ids: [] } });
    expect(res.statusCode).toBe(400);
  });
});

describe('access to device management', () => {
  const tables = [organizationRoutes, categoryRoutes, productRoutes, deviceRoutes, credentialsRoutes, deviceImportRoutes];

  it('answers 401 to every device-management call without a token', async () => {
    const { anonymous } = await makeDeviceApp();
    const routes = tables.flatMap((table) => Object.values(table));
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) {
      const params = Object.fromEntries([...route.url.matchAll(/:(\w+)/g)].map((m) => [m[1]!, 'x']));
      const res = await anonymous.call(route, { params, body: route.method === 'GET' ? undefined : {} });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(res.json().code, `${route.method} ${route.url}`).toBe(10);
    }
  });

  it('marks every device-management route as a signed-in call with a permission', () => {
    for (const route of tables.flatMap((table) => Object.values(table))) {
      expect(route.url.startsWith('/api/yt/'), route.url).toBe(true);
      expect(route.config.access, route.url).toBe('user');
      expect(route.config.permission, route.url).toMatch(/^[a-z_]+:[a-z:]+$/);
    }
  });
});
