import { describe, expect, it } from 'vitest';
import { productRoutes } from '../../server/contract/product.ts';
import { thingModelRoutes } from '../../server/contract/thing-model.ts';
import { checkPropertyValue } from '../../server/modules/thing-model/thing-model-check.ts';
import { expectError } from '../helpers/error-body.ts';
import {
  eventBody,
  expectRefused,
  intType,
  makeThingModelApp,
  propertyBody,
  serviceBody,
  thingModelsOf,
} from '../helpers/thing-model.ts';

describe('thing-model publication', () => {
  it('goes draft → publish → edit → unpublished changes → publish again, versioning each publication', async () => {
    const t = await makeThingModelApp();
    const { api } = t;
    const heard = t.heard('thingModel.published');
    const product = await api.createProduct();
    const level = await api.createItem(propertyBody(product.id, { identifier: 'level' }));
    const reboot = await api.createItem(serviceBody(product.id, { identifier: 'reboot' }));

    expect(await api.status(product.id)).toEqual({
      deviceProfileId: product.id,
      productStatus: 'DRAFT',
      draftItemCount: 2,
      hasUnpublishedChanges: true,
      publishedVersion: null,
      publishedTime: null,
      publishedItemCount: 0,
    });

    const first = await api.publish(product.id);
    expect(first).toMatchObject({ productStatus: 'PUBLISHED', hasUnpublishedChanges: false, publishedVersion: 1, publishedItemCount: 2 });
    expect(first.publishedTime).toBeGreaterThan(0);
    expect((await api.items(product.id)).map((i) => i.status)).toEqual(['PUBLISHED', 'PUBLISHED']);
    expect(heard).toEqual([{ deviceProfileId: product.id }]);

    // Editing one item makes it (and the model) a draft again; the other stays published.
    const edited = await api.ok(thingModelRoutes.update, {
      body: { ...propertyBody(product.id, { identifier: 'level', functionJson: { dataType: intType({ max: 50 }) } }), id: level.id },
    });
    expect(edited.status).toBe('DRAFT');
    expect((await api.items(product.id)).map((i) => [i.identifier, i.status])).toEqual([['level', 'DRAFT'], ['reboot', 'PUBLISHED']]);
    expect(await api.status(product.id)).toMatchObject({ hasUnpublishedChanges: true, publishedVersion: 1 });

    const second = await api.publish(product.id);
    expect(second).toMatchObject({ hasUnpublishedChanges: false, publishedVersion: 2, publishedItemCount: 2 });
    expect(heard).toHaveLength(2);

    // Deleting a published item is an unpublished change too, though no item is DRAFT.
    await api.ok(thingModelRoutes.delete, { body: { ids: [reboot.id] } });
    expect(await api.items(product.id)).toMatchObject([{ identifier: 'level', status: 'PUBLISHED' }]);
    expect(await api.status(product.id)).toMatchObject({ hasUnpublishedChanges: true, draftItemCount: 1, publishedItemCount: 2 });
    expect(await api.publish(product.id)).toMatchObject({ publishedVersion: 3, publishedItemCount: 1, hasUnpublishedChanges: false });
  });

  it('counts an edit that restores the published content as no change', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    const body = propertyBody(product.id, { identifier: 'level' });
    const item = await api.createItem(body);
    await api.publish(product.id);
    await api.ok(thingModelRoutes.update, { body: { ...body, functionName: '液位', id: item.id } });
    expect(await api.status(product.id)).toMatchObject({ hasUnpublishedChanges: true });
    const restored = await api.ok(thingModelRoutes.update, { body: { ...body, id: item.id } });
    expect(restored.status).toBe('PUBLISHED');
    expect(await api.status(product.id)).toMatchObject({ hasUnpublishedChanges: false });
  });

  it('publishing an unchanged model again writes no new version and announces nothing', async () => {
    const t = await makeThingModelApp();
    const heard = t.heard('thingModel.published');
    const product = await t.api.createProduct();
    await t.api.createItem(propertyBody(product.id));
    const first = await t.api.publish(product.id);
    const again = await t.api.publish(product.id);
    expect(again).toEqual(first);
    expect(heard).toHaveLength(1);
  });

  it('refuses to publish an empty model: at least one item is required', async () => {
    const { api } = await makeThingModelApp();
    const product = await api.createProduct();
    const res = await api.call(thingModelRoutes.publish, { params: { deviceProfileId: product.id }, lang: 'en-US' });
    expectRefused(res, 'error.thingModel.emptyModel', 'params.deviceProfileId');
    expect(res.json().message).toBe('At least one item is required');
    expect((await api.ok(productRoutes.get, { params: { id: product.id } })).status).toBe('DRAFT');

    // Emptying a published model cannot be published either: the last version stays live.
    const item = await api.createItem(propertyBody(product.id));
    await api.publish(product.id);
    await api.ok(thingModelRoutes.delete, { body: { ids: [item.id] } });
    expectRefused(await api.call(thingModelRoutes.publish, { params: { deviceProfileId: product.id } }), 'error.thingModel.emptyModel', 'params.deviceProfileId');
    expect(await api.status(product.id)).toMatchObject({ publishedVersion: 1, publishedItemCount: 1, draftItemCount: 0, hasUnpublishedChanges: true });
  });

  it('answers 404 when publishing or asking the status of a product that does not exist', async () => {
    const { api } = await makeThingModelApp();
    expectError(await api.call(thingModelRoutes.publish, { params: { deviceProfileId: 'nope' } }), 404, 32, 'error.notFound');
    expectError(await api.call(thingModelRoutes.status, { params: { deviceProfileId: 'nope' } }), 404, 32, 'error.notFound');
  });

  it('marks the product PUBLISHED through the product module, which announces it once', async () => {
    const t = await makeThingModelApp();
    const products = t.heard('product.published');
    const product = await t.api.createProduct();
    await t.api.createItem(propertyBody(product.id));
    await t.api.publish(product.id);
    expect(products).toEqual([{ productId: product.id }]);
    expect((await t.api.ok(productRoutes.get, { params: { id: product.id } })).status).toBe('PUBLISHED');
  });

  it("publishes the draft with its product when the product is published, and not an empty one", async () => {
    const t = await makeThingModelApp();
    const heard = t.heard('thingModel.published');
    const product = await t.api.createProduct();
    await t.api.ok(productRoutes.publish, { params: { id: product.id } });
    expect(await t.api.status(product.id)).toMatchObject({ productStatus: 'PUBLISHED', publishedVersion: null });
    expect(heard).toEqual([]);

    await t.api.createItem(propertyBody(product.id));
    await t.api.ok(productRoutes.publish, { params: { id: product.id } });
    expect(await t.api.status(product.id)).toMatchObject({ publishedVersion: 1, hasUnpublishedChanges: false });
    expect(heard).toEqual([{ deviceProfileId: product.id }]);
  });

  it('hands other modules the published model only, unchanged by later draft edits', async () => {
    const t = await makeThingModelApp();
    const { api } = t;
    const product = await api.createProduct();
    const level = await api.createItem(propertyBody(product.id, { identifier: 'level', accessMode: 'rw' }));
    await api.createItem(serviceBody(product.id, { identifier: 'reset', callType: 'SYNC' }));
    await api.createItem(eventBody(product.id, { identifier: 'overheat', eventType: 'ERROR' }));
    expect(thingModelsOf(t).getPublished(product.id)).toBeNull();

    await api.publish(product.id);
    await api.ok(thingModelRoutes.update, {
      body: { ...propertyBody(product.id, { identifier: 'level', functionJson: { dataType: intType({ max: 10 }) } }), id: level.id },
    });
    const published = thingModelsOf(t).getPublished(product.id);
    expect(published).toMatchObject({
      deviceProfileId: product.id,
      version: 1,
      properties: [{ identifier: 'level', accessMode: 'rw', dataType: { type: 'INT', specs: { max: 100 } }, extensionDesc: null }],
      services: [{ identifier: 'reset', callType: 'SYNC', inputData: [{ identifier: 'threshold' }] }],
      events: [{ identifier: 'overheat', eventType: 'ERROR', outputData: [{ identifier: 'temperature' }] }],
    });
    expect(checkPropertyValue(published!, 'level', 50)).toEqual({ ok: true });
    expect(thingModelsOf(t).getPublished('no-such-product')).toBeNull();
  });

  it('keeps handing out one cached published model until the next publication', async () => {
    const t = await makeThingModelApp();
    const models = thingModelsOf(t);
    const product = await t.api.createProduct();
    const item = await t.api.createItem(propertyBody(product.id, { identifier: 'level' }));
    await t.api.publish(product.id);
    const first = models.getPublished(product.id);
    expect(models.getPublished(product.id)).toBe(first);

    await t.api.ok(thingModelRoutes.update, { body: { ...propertyBody(product.id, { identifier: 'level', functionName: '液位' }), id: item.id } });
    expect(models.getPublished(product.id)).toBe(first);
    models.publish(product.id);
    const second = models.getPublished(product.id);
    expect(second).not.toBe(first);
    expect(second).toMatchObject({ version: 2, properties: [{ functionName: '液位' }] });
  });
});
