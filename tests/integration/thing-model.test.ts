import { describe, expect, it } from 'vitest';
import { productRoutes } from '../../server/contract/product.ts';
import { thingModelRoutes } from '../../server/contract/thing-model.ts';
import { expectError } from '../helpers/error-body.ts';
import {
  eventBody,
  expectRefused,
  makeThingModelApp,
  propertyBody,
  serviceBody,
} from '../helpers/thing-model.ts';

describe('thing-model items', () => {
  it('adds a property, a service and an event to the draft, answering each with its id and DRAFT status', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    const property = await api.createItem(propertyBody(product.id, { identifier: 'temperature', accessMode: 'rw' }));
    expect(property).toMatchObject({
      deviceProfileId: product.id,
      functionType: 'properties',
      functionName: '温度',
      identifier: 'temperature',
      accessMode: 'rw',
      eventType: null,
      callType: null,
      functionJson: { dataType: { type: 'INT', specs: { min: 0, max: 100, step: 1, unit: '°C', unitName: 'Celsius' } } },
      extensionDesc: null,
      status: 'DRAFT',
    });
    expect(property.id).toEqual(expect.any(String));
    expect(property.createdTime).toBeGreaterThan(0);

    const service = await api.createItem(serviceBody(product.id, { identifier: 'setThreshold', callType: 'SYNC' }));
    expect(service).toMatchObject({ functionType: 'services', callType: 'SYNC', accessMode: null, status: 'DRAFT' });
    expect(service.functionJson.inputData?.map((p) => p.identifier)).toEqual(['threshold']);
    expect(service.functionJson.outputData?.[0]?.dataType).toEqual({ type: 'BOOL', specs: { '0': 'fail', '1': 'ok' } });

    const event = await api.createItem(eventBody(product.id, { identifier: 'overheat', eventType: 'ERROR' }));
    expect(event).toMatchObject({ functionType: 'events', eventType: 'ERROR', functionJson: { outputData: [{ identifier: 'temperature' }] } });
  });

  it('stores numbers sent as text as numbers and trims unit names', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    const item = await api.createItem(
      propertyBody(product.id, {
        functionJson: { dataType: { type: 'DOUBLE', specs: { min: '-1.5', max: '2.5', step: '0.5', unit: ' m ', unitName: '' } } },
      }),
    );
    expect(item.functionJson.dataType).toEqual({ type: 'DOUBLE', specs: { min: -1.5, max: 2.5, step: 0.5, unit: 'm' } });
  });

  it('gives a service without parameters empty input and output lists', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    const item = await api.createItem(serviceBody(product.id, { functionJson: {} }));
    expect(item.functionJson).toEqual({ inputData: [], outputData: [] });
  });

  it('lists the draft in creation order, paged and filtered by function type', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    const other = await api.createProduct();
    await api.createItem(propertyBody(other.id));
    const made = [
      await api.createItem(propertyBody(product.id, { identifier: 'p1' })),
      await api.createItem(serviceBody(product.id, { identifier: 's1' })),
      await api.createItem(propertyBody(product.id, { identifier: 'p2' })),
      await api.createItem(eventBody(product.id, { identifier: 'e1' })),
    ];
    const all = await api.ok(thingModelRoutes.list, { params: { deviceProfileId: product.id } });
    expect(all.total).toBe(4);
    expect(all.items.map((i) => i.identifier)).toEqual(['p1', 's1', 'p2', 'e1']);
    expect(all.items[0]).toEqual(made[0]);

    const page2 = await api.ok(thingModelRoutes.list, { params: { deviceProfileId: product.id }, query: { page: 2, pageSize: 3 } });
    expect(page2).toMatchObject({ total: 4, items: [{ identifier: 'e1' }] });

    const properties = await api.ok(thingModelRoutes.list, { params: { deviceProfileId: product.id }, query: { functionType: 'properties' } });
    expect(properties.total).toBe(2);
    expect(properties.items.map((i) => i.identifier)).toEqual(['p1', 'p2']);
  });

  it('answers 404 for the items of a product that does not exist, and refuses an unknown function type', async () => {
    const { api } = await makeThingModelApp();
    expectError(await api.call(thingModelRoutes.list, { params: { deviceProfileId: 'nope' } }), 404, 32, 'error.notFound');
    const product = await api.createProduct();
    const res = await api.call(thingModelRoutes.list, { params: { deviceProfileId: product.id }, query: { functionType: 'attributes' } });
    expectRefused(res, 'error.field.choice', 'querystring.functionType');
  });

  it('edits an item in place, keeping its id and creation time, and may change its function type', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    const item = await api.createItem(propertyBody(product.id, { identifier: 'level' }));
    const edited = await api.ok(thingModelRoutes.update, {
      body: { ...eventBody(product.id, { identifier: 'level', functionName: '液位告警' }), id: item.id },
    });
    expect(edited).toMatchObject({ id: item.id, createdTime: item.createdTime, functionType: 'events', functionName: '液位告警', accessMode: null, eventType: 'ALERT' });
    expect(await api.items(product.id)).toEqual([edited]);
  });

  it('refuses to edit an item that does not exist, or to move it to another product', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    const other = await api.createProduct();
    const item = await api.createItem(propertyBody(product.id));
    expectError(await api.call(thingModelRoutes.update, { body: { ...propertyBody(product.id), id: 'missing' } }), 404, 32, 'error.notFound');
    const moved = await api.call(thingModelRoutes.update, { body: { ...propertyBody(other.id), id: item.id } });
    expectRefused(moved, 'error.thingModel.productChanged', 'body.deviceProfileId');
  });

  it('deletes items by id, skipping unknown ids', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    const a = await api.createItem(propertyBody(product.id));
    const b = await api.createItem(serviceBody(product.id));
    const c = await api.createItem(eventBody(product.id));
    const res = await api.ok(thingModelRoutes.delete, { body: { ids: [a.id, c.id, 'unknown', a.id] } });
    expect(res).toEqual({ deleted: 2 });
    expect((await api.items(product.id)).map((i) => i.id)).toEqual([b.id]);
  });

  it('refuses an identifier another function of the product uses, whatever its function type', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    const first = await api.createItem(propertyBody(product.id, { identifier: 'status' }));
    expectRefused(await api.refuse(eventBody(product.id, { identifier: 'status' })), 'error.thingModel.identifierTaken', 'body.identifier');

    const second = await api.createItem(serviceBody(product.id, { identifier: 'reset' }));
    const clash = await api.call(thingModelRoutes.update, { body: { ...serviceBody(product.id, { identifier: 'status' }), id: second.id } });
    expectRefused(clash, 'error.thingModel.identifierTaken', 'body.identifier');

    // Keeping one's own identifier is no clash; another product may use it too.
    await api.ok(thingModelRoutes.update, { body: { ...propertyBody(product.id, { identifier: 'status', functionName: '状态' }), id: first.id } });
    const other = await api.createProduct();
    await api.createItem(propertyBody(other.id, { identifier: 'status' }));
  });

  it('refuses function names outside Chinese characters, letters, digits, - and _, or longer than 30', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    await api.createItem(propertyBody(product.id, { functionName: '温度-Temp_1' }));
    await api.createItem(propertyBody(product.id, { functionName: 'x'.repeat(30) }));
    for (const functionName of ['温度 1', 'temp@', '', 'x'.repeat(31), 'a/b']) {
      expectRefused(await api.refuse(propertyBody(product.id, { functionName })), 'error.thingModel.functionName', 'body.functionName');
    }
  });

  it('refuses identifiers outside letters, digits and _, or longer than 32', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    await api.createItem(propertyBody(product.id, { identifier: 'a'.repeat(32) }));
    await api.createItem(propertyBody(product.id, { identifier: '1st_value' }));
    for (const identifier of ['temp-1', '温度', 'a b', '', 'a'.repeat(33)]) {
      expectRefused(await api.refuse(propertyBody(product.id, { identifier })), 'error.thingModel.identifier', 'body.identifier');
    }
  });

  it('refuses an item for a product that does not exist', async () => {
    const { api } = await makeThingModelApp();
    expectRefused(await api.refuse(propertyBody('no-such-product')), 'error.thingModel.productNotFound', 'body.deviceProfileId');
  });

  it('requires the access mode of a property, the call type of a service and the event type of an event', async () => {
    const { api } = await makeThingModelApp();
    const { id } = await api.createProduct();
    expectRefused(await api.refuse(propertyBody(id, { accessMode: undefined })), 'error.field.required', 'body.accessMode');
    expectRefused(await api.refuse(serviceBody(id, { callType: undefined })), 'error.field.required', 'body.callType');
    expectRefused(await api.refuse(eventBody(id, { eventType: undefined })), 'error.field.required', 'body.eventType');
    expectRefused(await api.refuse(propertyBody(id, { functionJson: {} })), 'error.field.required', 'body.functionJson.dataType');
  });

  it('refuses unknown access modes, call types and event types', async () => {
    const { api } = await makeThingModelApp();
    const { id } = await api.createProduct();
    expectRefused(await api.refuse(propertyBody(id, { accessMode: 'w' })), 'error.field.choice', 'body.accessMode');
    expectRefused(await api.refuse(serviceBody(id, { callType: 'LATER' })), 'error.field.choice', 'body.callType');
    expectRefused(await api.refuse(eventBody(id, { eventType: 'FATAL' })), 'error.field.choice', 'body.eventType');
    expectRefused(await api.refuse(propertyBody(id, { functionType: 'attributes' })), 'error.field.choice', 'body.functionType');
  });

  it("refuses a field of another function type, naming it", async () => {
    const { api } = await makeThingModelApp();
    const { id } = await api.createProduct();
    const cases: [Record<string, unknown>, string][] = [
      [propertyBody(id, { eventType: 'INFO' }), 'body.eventType'],
      [propertyBody(id, { callType: 'SYNC' }), 'body.callType'],
      [propertyBody(id, { functionJson: { dataType: { type: 'BOOL', specs: { 0: 'a', 1: 'b' } }, outputData: [{ identifier: 'x', functionName: 'x', dataType: { type: 'BOOL', specs: { 0: 'a', 1: 'b' } } }] } }), 'body.functionJson.outputData'],
      [serviceBody(id, { accessMode: 'r' }), 'body.accessMode'],
      [serviceBody(id, { functionJson: { dataType: { type: 'TEXT', specs: { length: 1 } } } }), 'body.functionJson.dataType'],
      [eventBody(id, { callType: 'ASYNC' }), 'body.callType'],
      [eventBody(id, { functionJson: { inputData: [{ identifier: 'x', functionName: 'x', dataType: { type: 'TEXT', specs: { length: 1 } } }] } }), 'body.functionJson.inputData'],
    ];
    for (const [body, field] of cases) expectRefused(await api.refuse(body), 'error.thingModel.notForFunctionType', field);
  });

  it('reserves the identifier source on TCP products for the original data, and only there', async () => {
    const { api } = await makeThingModelApp();
    const tcp = await api.createProduct({ transportType: 'TCP', tcpProtocolType: 'CUSTOM', tcpAuthType: 'DATA_CARRY' });
    expectRefused(await api.refuse(propertyBody(tcp.id, { identifier: 'source' })), 'error.thingModel.identifierReserved', 'body.identifier');
    await api.createItem(propertyBody(tcp.id, { identifier: 'sourceTemp' }));
    const mqtt = await api.createProduct();
    await api.createItem(propertyBody(mqtt.id, { identifier: 'source' }));
  });

  it("drops a product's model with the product", async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    const keep = await api.createProduct();
    await api.createItem(propertyBody(product.id));
    await api.publish(product.id);
    await api.ok(productRoutes.delete, { body: { ids: [product.id] } });
    expectError(await api.call(thingModelRoutes.list, { params: { deviceProfileId: product.id } }), 404, 32, 'error.notFound');
    expectError(await api.call(thingModelRoutes.status, { params: { deviceProfileId: product.id } }), 404, 32, 'error.notFound');
    expect(await api.items(keep.id)).toEqual([]);
  });

  it('answers 401 on every thing-model route without a token', async () => {
    const { anonymous } = await makeThingModelApp();
    const params = { deviceProfileId: 'p' };
    const calls = [
      anonymous.call(thingModelRoutes.list, { params }),
      anonymous.call(thingModelRoutes.create, { body: propertyBody('p') }),
      anonymous.call(thingModelRoutes.update, { body: { ...propertyBody('p'), id: 'x' } }),
      anonymous.call(thingModelRoutes.delete, { body: { ids: ['x'] } }),
      anonymous.call(thingModelRoutes.publish, { params }),
      anonymous.call(thingModelRoutes.status, { params }),
      anonymous.call(thingModelRoutes.exportTsl, { params }),
      anonymous.call(thingModelRoutes.importTsl, { params, body: { properties: [] } }),
    ];
    expect(calls.length).toBe(Object.keys(thingModelRoutes).length);
    for (const res of await Promise.all(calls)) expectError(res, 401, 10, 'error.auth.required');
  });
});
