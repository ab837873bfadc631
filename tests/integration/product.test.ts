import { describe, expect, it } from 'vitest';
import { productRoutes, type Product } from '../../server/contract/product.ts';
import { makeDeviceApp, type DeviceApi } from '../helpers/devices.ts';

const IMAGE = `/api/yt/oss/files/${'a'.repeat(64)}.png`;

async function defaults(api: DeviceApi): Promise<string[]> {
  const page = await api.ok(productRoutes.list, { query: { pageSize: 100 } });
  return page.items.filter((p) => p.isDefault).map((p) => p.name);
}

describe('products (device profiles)', () => {
  it('creates a DRAFT product with its category name, device count and times', async () => {
    const { api } = await makeDeviceApp();
    const category = await api.createCategory({ name: 'meters' });
    const product = await api.createProduct({
      name: 'Meter-X1',
      categoryId: category.id,
      deviceType: 'GATEWAY',
      transportType: 'MQTT',
      image: IMAGE,
      description: ' three phase ',
      protocol: 'DL/T 645',
    });
    expect(product).toMatchObject({
      name: 'Meter-X1',
      categoryId: category.id,
      categoryName: 'meters',
      deviceType: 'GATEWAY',
      transportType: 'MQTT',
      tcpProtocolType: null,
      tcpAuthType: null,
      status: 'DRAFT',
      image: IMAGE,
      description: 'three phase',
      protocol: 'DL/T 645',
      deviceCount: 0,
    });
    expect(product.createdTime).toBeGreaterThan(0);
    expect(await api.ok(productRoutes.get, { params: { id: product.id } })).toEqual(product);
  });

  it('accepts a TCP product with its protocol and auth type', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct({ transportType: 'TCP', tcpProtocolType: 'MODBUS_RTU', tcpAuthType: 'REGISTER_SEND' });
    expect(product).toMatchObject({ transportType: 'TCP', tcpProtocolType: 'MODBUS_RTU', tcpAuthType: 'REGISTER_SEND' });
  });

  it('refuses a TCP product without protocol and auth type, naming both fields', async () => {
    const { api } = await makeDeviceApp();
    const res = await api.call(productRoutes.create, { body: { name: 'tcp', deviceType: 'DIRECT_CONNECTION', transportType: 'TCP' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 31,
      key: 'error.product.tcpProtocolTypeRequired',
      details: [
        { field: 'body.tcpProtocolType', key: 'error.product.tcpProtocolTypeRequired' },
        { field: 'body.tcpAuthType', key: 'error.product.tcpAuthTypeRequired' },
      ],
    });
  });

  it('refuses TCP fields on a product that is not TCP', async () => {
    const { api } = await makeDeviceApp();
    const res = await api.call(productRoutes.create, {
      body: { name: 'mqtt', deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT', tcpAuthType: 'DATA_CARRY' },
    });
    expect(res.json()).toMatchObject({ key: 'error.product.tcpFieldsOnlyForTcp', details: [{ field: 'body.tcpAuthType' }] });
  });

  it('refuses an unknown transport type and a picture that is not an upload', async () => {
    const { api } = await makeDeviceApp();
    const transport = await api.call(productRoutes.create, { body: { name: 'p', deviceType: 'SENSOR', transportType: 'HTTP' } });
    expect(transport.json()).toMatchObject({ key: 'error.field.choice', details: [{ field: 'body.transportType' }] });
    const image = await api.call(productRoutes.create, {
      body: { name: 'p', deviceType: 'SENSOR', transportType: 'MQTT', image: 'https://example.com/x.png' },
    });
    expect(image.json()).toMatchObject({ key: 'error.field.image', details: [{ field: 'body.image' }] });
  });

  it('refuses a duplicate name, an unknown category and a disabled category', async () => {
    const { api } = await makeDeviceApp();
    await api.createProduct({ name: 'dup' });
    expect((await api.call(productRoutes.create, { body: { name: 'dup', deviceType: 'SENSOR', transportType: 'MQTT' } })).json().key).toBe(
      'error.product.nameTaken',
    );
    const unknown = await api.call(productRoutes.create, { body: { name: 'p', deviceType: 'SENSOR', transportType: 'MQTT', categoryId: 'nope' } });
    expect(unknown.json()).toMatchObject({ key: 'error.product.categoryNotFound', details: [{ field: 'body.categoryId' }] });
    const disabled = await api.createCategory({ status: 0 });
    const res = await api.call(productRoutes.create, { body: { name: 'p', deviceType: 'SENSOR', transportType: 'MQTT', categoryId: disabled.id } });
    expect(res.json().key).toBe('error.product.categoryDisabled');
  });

  it('keeps exactly one default: the first product, then whichever is set, then the oldest left', async () => {
    const { api } = await makeDeviceApp();
    const first = await api.createProduct({ name: 'first' });
    expect(first.isDefault).toBe(true);
    const second = await api.createProduct({ name: 'second' });
    expect(second.isDefault).toBe(false);
    const third = await api.createProduct({ name: 'third', isDefault: true });
    expect(third.isDefault).toBe(true);
    expect(await defaults(api)).toEqual(['third']);

    await api.ok(productRoutes.update, { body: { id: second.id, name: 'second', deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT', isDefault: true } });
    expect(await defaults(api)).toEqual(['second']);
    await api.ok(productRoutes.setDefault, { params: { id: first.id } });
    expect(await defaults(api)).toEqual(['first']);

    await api.ok(productRoutes.delete, { body: { ids: [first.id] } });
    expect(await defaults(api)).toEqual(['second']);
  });

  it('refuses clearing the flag of the default product', async () => {
    const { api } = await makeDeviceApp();
    const only = await api.createProduct({ name: 'only' });
    const res = await api.call(productRoutes.update, {
      body: { id: only.id, name: 'only', deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT', isDefault: false },
    });
    expect(res.json()).toMatchObject({ key: 'error.product.defaultRequired', details: [{ field: 'body.isDefault' }] });
  });

  it('edits a product and keeps its default flag when isDefault is left out', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct({ name: 'before' });
    const edited = await api.ok(productRoutes.update, {
      body: { id: product.id, name: 'after', deviceType: 'SENSOR', transportType: 'TCP', tcpProtocolType: 'CUSTOM', tcpAuthType: 'REGISTRATION_PACKAGE' },
    });
    expect(edited).toMatchObject({ name: 'after', deviceType: 'SENSOR', transportType: 'TCP', isDefault: true, status: 'DRAFT' });
  });

  it('refuses changing the device type or the transport while devices use the product, and deleting it', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct({ name: 'used', deviceType: 'DIRECT_CONNECTION' });
    await api.createDevice({ deviceProfileId: product.id });
    const retype = await api.call(productRoutes.update, { body: { id: product.id, name: 'used', deviceType: 'GATEWAY', transportType: 'MQTT' } });
    expect(retype.json()).toMatchObject({ key: 'error.product.deviceTypeLocked', details: [{ field: 'body.deviceType' }] });
    const retransport = await api.call(productRoutes.update, { body: { id: product.id, name: 'used', deviceType: 'DIRECT_CONNECTION', transportType: 'COAP' } });
    expect(retransport.statusCode).toBe(400);
    expect(retransport.json()).toMatchObject({ key: 'error.product.transportTypeLocked', details: [{ field: 'body.transportType' }] });
    expect((await api.ok(productRoutes.get, { params: { id: product.id } })).transportType).toBe('MQTT');
    const remove = await api.call(productRoutes.delete, { body: { ids: [product.id] }, lang: 'en-US' });
    expect(remove.statusCode).toBe(400);
    expect(remove.json()).toMatchObject({ code: 31, key: 'error.product.inUse' });
    expect(remove.json().message).toContain('used');
    expect((await api.ok(productRoutes.get, { params: { id: product.id } })).deviceCount).toBe(1);
  });

  it('publishes a product', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    expect((await api.ok(productRoutes.publish, { params: { id: product.id } })).status).toBe('PUBLISHED');
    expect((await api.ok(productRoutes.list, { query: { status: 'PUBLISHED' } })).items.map((p) => p.id)).toEqual([product.id]);
  });

  it('filters the list by name, category, transport and device type', async () => {
    const { api } = await makeDeviceApp();
    const category = await api.createCategory();
    const a = await api.createProduct({ name: 'alpha', categoryId: category.id });
    const b = await api.createProduct({ name: 'beta', transportType: 'COAP', deviceType: 'SENSOR' });
    const ids = async (query: Record<string, string>): Promise<string[]> =>
      (await api.ok(productRoutes.list, { query })).items.map((p: Product) => p.id);
    expect(await ids({ name: 'alp' })).toEqual([a.id]);
    expect(await ids({ categoryId: category.id })).toEqual([a.id]);
    expect(await ids({ transportType: 'COAP' })).toEqual([b.id]);
    expect(await ids({ deviceType: 'SENSOR' })).toEqual([b.id]);
    expect(await ids({ sortField: 'name', sortOrder: 'descend' })).toEqual([b.id, a.id]);
  });

  it('answers every product for selects with its types', async () => {
    const { api } = await makeDeviceApp();
    await api.createProduct({ name: 'b', deviceType: 'GATEWAY', transportType: 'TCP', tcpProtocolType: 'MODBUS_RTU', tcpAuthType: 'DATA_CARRY' });
    await api.createProduct({ name: 'a' });
    expect(await api.ok(productRoutes.options)).toEqual([
      expect.objectContaining({ name: 'a', deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT', isDefault: false }),
      expect.objectContaining({ name: 'b', deviceType: 'GATEWAY', transportType: 'TCP', isDefault: true }),
    ]);
  });

  it('answers 404 code 32 for an unknown product', async () => {
    const { api } = await makeDeviceApp();
    for (const res of [
      await api.call(productRoutes.get, { params: { id: 'missing' } }),
      await api.call(productRoutes.publish, { params: { id: 'missing' } }),
      await api.call(productRoutes.update, { body: { id: 'missing', name: 'x', deviceType: 'SENSOR', transportType: 'MQTT' } }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 32, key: 'error.notFound' });
    }
  });
});
