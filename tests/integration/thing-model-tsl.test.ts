import { describe, expect, it } from 'vitest';
import { TSL_FORMAT, TSL_ITEMS_MAX, thingModelRoutes, type ThingModelTsl } from '../../server/contract/thing-model.ts';
import { expectError } from '../helpers/error-body.ts';
import {
  eventBody,
  expectRefused,
  intType,
  makeThingModelApp,
  param,
  propertyBody,
  serviceBody,
  type ThingModelApi,
} from '../helpers/thing-model.ts';

function exportTsl(api: ThingModelApi, deviceProfileId: string, published = false): Promise<ThingModelTsl> {
  return api.ok(thingModelRoutes.exportTsl, { params: { deviceProfileId }, query: published ? { published: true } : {} });
}

function importTsl(api: ThingModelApi, deviceProfileId: string, body: unknown): ReturnType<ThingModelApi['call']> {
  return api.call(thingModelRoutes.importTsl, { params: { deviceProfileId }, body: body as Record<string, unknown>, lang: 'en-US' });
}

const groupsOf = (tsl: ThingModelTsl): Pick<ThingModelTsl, 'properties' | 'services' | 'events'> => ({
  properties: tsl.properties,
  services: tsl.services,
  events: tsl.events,
});

/** A model with one of everything: an enum, a struct, a service with parameters, an event. */
async function fillModel(api: ThingModelApi, deviceProfileId: string): Promise<void> {
  await api.createItem(propertyBody(deviceProfileId, { identifier: 'level', accessMode: 'rw' }));
  await api.createItem(propertyBody(deviceProfileId, {
    identifier: 'mode',
    functionName: '模式',
    functionJson: { dataType: { type: 'ENUM', specs: [{ value: 1, description: '制热' }, { value: 2, description: '制冷' }] } },
  }));
  await api.createItem(propertyBody(deviceProfileId, {
    identifier: 'position',
    functionJson: { dataType: { type: 'STRUCT', specs: [param('x'), param('label', { type: 'TEXT', specs: { length: 16 } })] } },
  }));
  await api.createItem(serviceBody(deviceProfileId, { identifier: 'setLevel', callType: 'SYNC' }));
  await api.createItem(eventBody(deviceProfileId, { identifier: 'overheat', eventType: 'ERROR' }));
}

describe('thing-model TSL', () => {
  it('exports the draft as one JSON document grouped by function type, without ids or status', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct({ name: 'Boiler' });
    await fillModel(api, product.id);
    const tsl = await exportTsl(api, product.id);
    expect(tsl).toMatchObject({ format: TSL_FORMAT, deviceProfileId: product.id, productName: 'Boiler', version: null });
    expect(tsl.properties.map((p) => p.identifier)).toEqual(['level', 'mode', 'position']);
    expect(tsl.properties[0]).toEqual({
      functionName: '温度',
      identifier: 'level',
      accessMode: 'rw',
      functionJson: { dataType: intType() },
    });
    expect(tsl.services).toEqual([
      expect.objectContaining({ identifier: 'setLevel', callType: 'SYNC', functionJson: { inputData: [expect.objectContaining({ identifier: 'threshold' })], outputData: [expect.objectContaining({ identifier: 'result' })] } }),
    ]);
    expect(tsl.events).toEqual([{ functionName: '过温告警', identifier: 'overheat', eventType: 'ERROR', functionJson: { outputData: [param('temperature')] } }]);
    expect(JSON.stringify(tsl)).not.toMatch(/"(id|status|createdTime)"/);
  });

  it('exports the published version on request, and 404 before the first publication', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    expectError(await api.call(thingModelRoutes.exportTsl, { params: { deviceProfileId: product.id }, query: { published: true } }), 404, 32, 'error.notFound');
    await api.createItem(propertyBody(product.id, { identifier: 'v1' }));
    await api.publish(product.id);
    await api.createItem(propertyBody(product.id, { identifier: 'draftOnly' }));
    const published = await exportTsl(api, product.id, true);
    expect(published.version).toBe(1);
    expect(published.properties.map((p) => p.identifier)).toEqual(['v1']);
    expect((await exportTsl(api, product.id)).properties.map((p) => p.identifier)).toEqual(['v1', 'draftOnly']);
    expectError(await api.call(thingModelRoutes.exportTsl, { params: { deviceProfileId: 'nope' } }), 404, 32, 'error.notFound');
  });

  it('round-trips: a model exported from one product imports into another as the same model, as a draft', async () => {
    const { api } = await makeThingModelApp();
    const source = await api.createProduct();
    await fillModel(api, source.id);
    const exported = await exportTsl(api, source.id);

    const target = await api.createProduct();
    const res = await importTsl(api, target.id, exported);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: 5, updated: 0, removed: 0, status: { draftItemCount: 5, hasUnpublishedChanges: true, publishedVersion: null } });
    expect(groupsOf(await exportTsl(api, target.id))).toEqual(groupsOf(exported));
    expect((await api.items(target.id)).every((i) => i.status === 'DRAFT' && i.deviceProfileId === target.id)).toBe(true);
  });

  it('round-trips Modbus descriptors between Modbus products and refuses them for another product', async () => {
    const { api } = await makeThingModelApp();
    const source = await api.createModbusProduct();
    const desc = { operationType: 'HOLDING_REGISTER_READ_WRITE', registerAddress: '0x10', originalDataType: 'UINT32_CDAB', scaleFactor: 0.1, valueMapping: { '0': 'off' } };
    await api.createItem(propertyBody(source.id, { identifier: 'speed', accessMode: 'rw', extensionDesc: desc }));
    const exported = await exportTsl(api, source.id);
    expect(exported.properties[0]?.extensionDesc).toEqual({ ...desc, registerAddress: 16, registerCount: 2 });

    const twin = await api.createModbusProduct();
    expect((await importTsl(api, twin.id, exported)).statusCode).toBe(200);
    expect(groupsOf(await exportTsl(api, twin.id))).toEqual(groupsOf(exported));

    const mqtt = await api.createProduct();
    const body = expectError(await importTsl(api, mqtt.id, exported), 400, 31, 'error.thingModel.tsl.invalid');
    expect(body.details).toEqual([expect.objectContaining({ field: 'body.properties.0.extensionDesc', key: 'error.thingModel.modbus.notModbusProduct' })]);
  });

  it('replaces the draft: same identifiers update in place, new ones are added, missing ones removed', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    const kept = await api.createItem(propertyBody(product.id, { identifier: 'level' }));
    const changed = await api.createItem(propertyBody(product.id, { identifier: 'mode' }));
    await api.createItem(propertyBody(product.id, { identifier: 'gone' }));
    const file = await exportTsl(api, product.id);
    file.properties = file.properties.filter((p) => p.identifier !== 'gone');
    file.properties[1]!.functionName = '模式';
    file.events = [{ functionName: '启动', identifier: 'boot', eventType: 'INFO', functionJson: { outputData: [] } }];

    const res = await importTsl(api, product.id, file);
    expect(res.json()).toMatchObject({ created: 1, updated: 1, removed: 1 });
    const items = await api.items(product.id);
    expect(items.map((i) => [i.identifier, i.id === kept.id || i.id === changed.id])).toEqual([['level', true], ['mode', true], ['boot', false]]);
    expect(items[0]).toEqual(kept);
    expect(items[1]?.functionName).toBe('模式');
  });

  it('re-importing the published model undoes draft edits, leaving nothing to publish', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    await fillModel(api, product.id);
    await api.publish(product.id);
    const published = await exportTsl(api, product.id, true);
    const level = (await api.items(product.id))[0]!;
    await api.ok(thingModelRoutes.update, { body: { ...propertyBody(product.id, { identifier: 'level', functionName: '液位' }), id: level.id } });
    await api.createItem(propertyBody(product.id, { identifier: 'extra' }));
    expect((await api.status(product.id)).hasUnpublishedChanges).toBe(true);

    const res = await importTsl(api, product.id, published);
    expect(res.json()).toMatchObject({ created: 0, updated: 1, removed: 1, status: { hasUnpublishedChanges: false, publishedVersion: 1 } });
    expect((await api.items(product.id)).every((i) => i.status === 'PUBLISHED')).toBe(true);
  });

  it('takes entries from other platforms: unknown fields are ignored, the group decides the function type', async () => {
    const { api } = await makeThingModelApp();
    const other = await api.createProduct();
    const product = await api.createProduct();
    const res = await importTsl(api, product.id, {
      schema: 'https://example.com/tsl.json',
      properties: [{ ...propertyBody(other.id, { identifier: 'level' }), id: 'x', status: 'PUBLISHED', functionType: 'events', remark: 'from elsewhere' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await api.items(product.id)).toMatchObject([{ identifier: 'level', functionType: 'properties', deviceProfileId: product.id }]);
  });

  it('refuses a file with broken entries as a whole, naming each entry and rule', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    const before = await api.createItem(propertyBody(product.id, { identifier: 'before' }));
    const file = {
      properties: [
        { ...propertyBody(product.id, { identifier: 'ok' }) },
        { ...propertyBody(product.id, { identifier: 'bad-id' }) },
        'temperature',
      ],
      services: [{ ...serviceBody(product.id, { identifier: 'reset' }), callType: undefined }],
      events: [
        eventBody(product.id, { identifier: 'alarm', functionJson: { outputData: [param('t', intType({ min: 9, max: 1, step: undefined }))] } }),
        eventBody(product.id, { identifier: 'ok' }),
      ],
    };
    const res = await importTsl(api, product.id, file);
    const body = expectError(res, 400, 31, 'error.thingModel.tsl.invalid');
    expect(body.message).toBe('The model file has errors (5); nothing was imported');
    expect(body.details?.map((d) => [d.field, d.key])).toEqual([
      ['body.properties.1.identifier', 'error.thingModel.identifier'],
      ['body.properties.2', 'error.thingModel.tsl.itemMalformed'],
      ['body.services.0.callType', 'error.field.required'],
      ['body.events.0.functionJson.outputData.0.dataType.specs.max', 'error.thingModel.number.maxBelowMin'],
      ['body.events.1.identifier', 'error.thingModel.identifierDuplicate'],
    ]);
    expect(body.details?.[4]?.message).toBe('The identifier ok appears more than once in the file');
    expect(await api.items(product.id)).toEqual([before]);
  });

  it('refuses a file without functions, or with groups that are not lists or too long', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    expectRefused(await importTsl(api, product.id, {}), 'error.thingModel.tsl.empty', 'body');
    expectRefused(await importTsl(api, product.id, { properties: [], services: [] }), 'error.thingModel.tsl.empty', 'body');
    expectRefused(await importTsl(api, product.id, { properties: { level: 1 } }), 'error.thingModel.tsl.group', 'body.properties');
    const many = Array.from({ length: TSL_ITEMS_MAX + 1 }, (_, i) => propertyBody(product.id, { identifier: `p${i}` }));
    expectRefused(await importTsl(api, product.id, { properties: many }), 'error.thingModel.tsl.group', 'body.properties');
    expectError(await importTsl(api, 'nope', { properties: [propertyBody('nope')] }), 404, 32, 'error.notFound');
  });

  it('refuses an entry nested 50,000 deep with 400, naming the entry, and imports nothing', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    const deep = '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000);
    const file = `{"properties":[${JSON.stringify(propertyBody(product.id, { identifier: 'level' }))},{"identifier":"x","functionJson":${deep}}]}`;
    const res = await api.call(thingModelRoutes.importTsl, {
      params: { deviceProfileId: product.id },
      payload: Buffer.from(file),
      headers: { 'content-type': 'application/json' },
      lang: 'en-US',
    });
    const body = expectError(res, 400, 31, 'error.thingModel.tsl.invalid');
    expect(body.details).toEqual([{ field: 'body.properties.1', key: 'error.thingModel.tsl.tooDeep', message: 'A function nests objects and arrays deeper than 32 levels' }]);
    expect(await api.items(product.id)).toEqual([]);
  });

  it('takes files past the 1 MB body limit up to 5 MB and refuses larger ones', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    const file = { note: 'x'.repeat(2 * 1024 * 1024), properties: [propertyBody(product.id, { identifier: 'level' })] };
    expect((await importTsl(api, product.id, file)).statusCode).toBe(200);
    const huge = { note: 'x'.repeat(5 * 1024 * 1024), properties: [] };
    const res = await importTsl(api, product.id, huge);
    const body = expectError(res, 413, 31, 'error.payloadTooLarge');
    expect(body.message).toBe('The file size exceeds 5 MB');
  });
});
