import { describe, expect, it } from 'vitest';
import { categoryRoutes } from '../../server/contract/category.ts';
import { makeDeviceApp } from '../helpers/devices.ts';

describe('product categories', () => {
  it('creates a category with defaults: enabled, CUSTOM, no products', async () => {
    const { api } = await makeDeviceApp();
    const category = await api.createCategory({ name: '智能电表', domain: ' 能源 ' });
    expect(category).toMatchObject({ name: '智能电表', domain: '能源', status: 1, type: 'CUSTOM', description: null, productCount: 0 });
    expect(await api.ok(categoryRoutes.get, { params: { id: category.id } })).toEqual(category);
  });

  it('edits every field of a category', async () => {
    const { api } = await makeDeviceApp();
    const category = await api.createCategory();
    const edited = await api.ok(categoryRoutes.update, {
      body: { id: category.id, name: 'renamed', domain: 'Water', status: 0, type: 'STANDARD', description: 'meters' },
    });
    expect(edited).toMatchObject({ id: category.id, name: 'renamed', domain: 'Water', status: 0, type: 'STANDARD', description: 'meters' });
  });

  it('refuses a duplicate name, naming the field', async () => {
    const { api } = await makeDeviceApp();
    await api.createCategory({ name: 'same' });
    const res = await api.call(categoryRoutes.create, { body: { name: 'same' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 31, key: 'error.category.nameTaken', details: [{ field: 'body.name' }] });
  });

  it('refuses a bad name, a domain over 30 characters and an unknown type', async () => {
    const { api } = await makeDeviceApp();
    const badName = await api.call(categoryRoutes.create, { body: { name: 'a b' } });
    expect(badName.json().key).toBe('error.field.name');
    const longDomain = await api.call(categoryRoutes.create, { body: { name: 'ok', domain: 'd'.repeat(31) } });
    expect(longDomain.json()).toMatchObject({ key: 'error.field.domain', details: [{ field: 'body.domain' }] });
    const badType = await api.call(categoryRoutes.create, { body: { name: 'ok', type: 'OTHER' } });
    expect(badType.json()).toMatchObject({ key: 'error.field.choice', details: [{ field: 'body.type' }] });
  });

  it('searches by name and pages with the total of the search', async () => {
    const { api } = await makeDeviceApp();
    for (const name of ['meter_a', 'meter_b', 'meter_c', 'camera']) await api.createCategory({ name });
    const page1 = await api.ok(categoryRoutes.list, { query: { name: 'meter', page: 1, pageSize: 2, sortField: 'name', sortOrder: 'ascend' } });
    const page2 = await api.ok(categoryRoutes.list, { query: { name: 'meter', page: 2, pageSize: 2, sortField: 'name', sortOrder: 'ascend' } });
    expect(page1).toMatchObject({ total: 3 });
    expect([...page1.items, ...page2.items].map((c) => c.name)).toEqual(['meter_a', 'meter_b', 'meter_c']);
  });

  it('lists newest first by default and filters by status and type', async () => {
    const { api } = await makeDeviceApp();
    await api.createCategory({ name: 'first', type: 'STANDARD' });
    await api.createCategory({ name: 'second', status: 0 });
    expect((await api.ok(categoryRoutes.list)).items.map((c) => c.name)).toEqual(['second', 'first']);
    expect((await api.ok(categoryRoutes.list, { query: { status: 0 } })).items.map((c) => c.name)).toEqual(['second']);
    expect((await api.ok(categoryRoutes.list, { query: { type: 'STANDARD' } })).items.map((c) => c.name)).toEqual(['first']);
  });

  it('refuses a page size over 100', async () => {
    const { api } = await makeDeviceApp();
    const res = await api.call(categoryRoutes.list, { query: { pageSize: 101 } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 31, details: [{ field: 'querystring.pageSize' }] });
  });

  it('answers every category for the product drawer select, by name', async () => {
    const { api } = await makeDeviceApp();
    await api.createCategory({ name: 'b' });
    await api.createCategory({ name: 'a', status: 0 });
    expect((await api.ok(categoryRoutes.options)).map((c) => [c.name, c.status])).toEqual([
      ['a', 0],
      ['b', 1],
    ]);
  });

  it('deletes categories and refuses deleting one a product uses', async () => {
    const { api } = await makeDeviceApp();
    const unused = await api.createCategory();
    const used = await api.createCategory({ name: 'used' });
    await api.createProduct({ categoryId: used.id });
    expect((await api.ok(categoryRoutes.get, { params: { id: used.id } })).productCount).toBe(1);
    const refused = await api.call(categoryRoutes.delete, { body: { ids: [unused.id, used.id] }, lang: 'en-US' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ key: 'error.category.inUse' });
    expect(refused.json().message).toContain('used');
    // All or nothing: the unused one is still there.
    expect((await api.call(categoryRoutes.get, { params: { id: unused.id } })).statusCode).toBe(200);
    expect(await api.ok(categoryRoutes.delete, { body: { ids: [unused.id] } })).toEqual({ deleted: 1 });
    expect((await api.call(categoryRoutes.get, { params: { id: unused.id } })).statusCode).toBe(404);
  });
});
