import { describe, expect, it } from 'vitest';
import { organizationRoutes } from '../../server/contract/organization.ts';
import { makeDeviceApp } from '../helpers/devices.ts';

describe('organizations', () => {
  it('creates an organization under a parent and answers it with its id', async () => {
    const { api } = await makeDeviceApp();
    const root = await api.createOrganization({ name: '总部' });
    const child = await api.createOrganization({ name: 'Plant-A(1)', parentId: root.id, sort: 3 });
    expect(child).toMatchObject({ name: 'Plant-A(1)', parentId: root.id, sort: 3 });
    expect(child.id).toEqual(expect.any(String));
    expect(await api.ok(organizationRoutes.get, { params: { id: child.id } })).toEqual(child);
  });

  it('gives a root and a default sort of 0 when parent and sort are left out', async () => {
    const { api } = await makeDeviceApp();
    expect(await api.createOrganization({ name: 'root' })).toMatchObject({ parentId: null, sort: 0 });
  });

  it('accepts the int32 bounds as sort', async () => {
    const { api } = await makeDeviceApp();
    expect((await api.createOrganization({ sort: 2147483647 })).sort).toBe(2147483647);
    expect((await api.createOrganization({ sort: -2147483648 })).sort).toBe(-2147483648);
  });

  it.each([
    ['2147483648', 2147483648],
    ['-2147483649', -2147483649],
    ['1.5', 1.5],
  ])('refuses a sort of %s with the sort rule', async (_, sort) => {
    const { api } = await makeDeviceApp();
    const res = await api.call(organizationRoutes.create, { body: { name: 'org', sort } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 31, key: 'error.field.sort', details: [{ field: 'body.sort', key: 'error.field.sort' }] });
  });

  it.each(['has space', 'semi;colon', 'a'.repeat(31), ''])('refuses the name %j with the name rule', async (name) => {
    const { api } = await makeDeviceApp();
    const res = await api.call(organizationRoutes.create, { body: { name } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ key: 'error.field.name', details: [{ field: 'body.name' }] });
  });

  it('answers the rule in the requested language', async () => {
    const { api } = await makeDeviceApp();
    const en = await api.call(organizationRoutes.create, { body: { name: 'x y' }, lang: 'en-US' });
    const zh = await api.call(organizationRoutes.create, { body: { name: 'x y' }, lang: 'zh-CN' });
    expect(en.json().message).toContain('1-30 characters');
    expect(zh.json().message).toContain('1-30 个字符');
  });

  it('refuses a second sibling of the same name but allows the name under another parent', async () => {
    const { api } = await makeDeviceApp();
    const a = await api.createOrganization({ name: 'A' });
    const b = await api.createOrganization({ name: 'B' });
    await api.createOrganization({ name: 'Line', parentId: a.id });
    const res = await api.call(organizationRoutes.create, { body: { name: 'Line', parentId: a.id } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 31, key: 'error.organization.nameTaken', details: [{ field: 'body.name' }] });
    await api.createOrganization({ name: 'Line', parentId: b.id });
    const rootTwin = await api.call(organizationRoutes.create, { body: { name: 'A' } });
    expect(rootTwin.json().key).toBe('error.organization.nameTaken');
  });

  it('refuses an unknown parent', async () => {
    const { api } = await makeDeviceApp();
    const res = await api.call(organizationRoutes.create, { body: { name: 'x', parentId: 'nope' } });
    expect(res.json()).toMatchObject({ key: 'error.organization.parentNotFound', details: [{ field: 'body.parentId' }] });
  });

  it('answers the tree nested and sorted by sort, then name', async () => {
    const { api } = await makeDeviceApp();
    const root = await api.createOrganization({ name: 'root' });
    await api.createOrganization({ name: 'b', parentId: root.id, sort: 1 });
    await api.createOrganization({ name: 'a', parentId: root.id, sort: 1 });
    const first = await api.createOrganization({ name: 'z', parentId: root.id, sort: -5 });
    await api.createOrganization({ name: 'leaf', parentId: first.id });
    const tree = await api.ok(organizationRoutes.tree);
    expect(tree).toHaveLength(1);
    expect(tree[0]!.children.map((c) => c.name)).toEqual(['z', 'a', 'b']);
    expect(tree[0]!.children[0]!.children.map((c) => c.name)).toEqual(['leaf']);
  });

  it('moves an organization under a new parent', async () => {
    const { api } = await makeDeviceApp();
    const a = await api.createOrganization({ name: 'a' });
    const b = await api.createOrganization({ name: 'b' });
    const moved = await api.ok(organizationRoutes.update, { body: { id: b.id, name: 'b2', sort: 7, parentId: a.id } });
    expect(moved).toMatchObject({ id: b.id, name: 'b2', sort: 7, parentId: a.id });
    const tree = await api.ok(organizationRoutes.tree);
    expect(tree.map((n) => n.name)).toEqual(['a']);
    expect(tree[0]!.children.map((n) => n.name)).toEqual(['b2']);
  });

  it('refuses moving an organization under itself or its descendant', async () => {
    const { api } = await makeDeviceApp();
    const a = await api.createOrganization({ name: 'a' });
    const child = await api.createOrganization({ name: 'child', parentId: a.id });
    const grandchild = await api.createOrganization({ name: 'grandchild', parentId: child.id });
    for (const parentId of [a.id, grandchild.id]) {
      const res = await api.call(organizationRoutes.update, { body: { id: a.id, name: 'a', parentId } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ key: 'error.organization.parentCycle', details: [{ field: 'body.parentId' }] });
    }
  });

  it('answers 404 code 32 for an unknown organization', async () => {
    const { api } = await makeDeviceApp();
    const get = await api.call(organizationRoutes.get, { params: { id: 'missing' } });
    expect(get.statusCode).toBe(404);
    expect(get.json()).toMatchObject({ code: 32, key: 'error.notFound' });
    const update = await api.call(organizationRoutes.update, { body: { id: 'missing', name: 'x' } });
    expect(update.statusCode).toBe(404);
  });

  it('lists organizations paged with a name search', async () => {
    const { api } = await makeDeviceApp();
    for (const name of ['east_1', 'east_2', 'east_3', 'west_1']) await api.createOrganization({ name });
    const page = await api.ok(organizationRoutes.list, { query: { page: 2, pageSize: 2, name: 'east' } });
    expect(page.total).toBe(3);
    expect(page.items.map((o) => o.name)).toEqual(['east_3']);
    const literal = await api.ok(organizationRoutes.list, { query: { name: 't_' } });
    expect(literal.items.map((o) => o.name).sort()).toEqual(['east_1', 'east_2', 'east_3', 'west_1']);
    const none = await api.ok(organizationRoutes.list, { query: { name: '%' } });
    expect(none.total).toBe(0);
  });

  it('deletes organizations given as ids', async () => {
    const { api } = await makeDeviceApp();
    const a = await api.createOrganization();
    const b = await api.createOrganization();
    expect(await api.ok(organizationRoutes.delete, { body: { ids: [a.id, b.id, 'unknown'] } })).toEqual({ deleted: 2 });
    expect(await api.ok(organizationRoutes.tree)).toEqual([]);
  });

  it('refuses deleting an organization that still has children, naming it', async () => {
    const { api } = await makeDeviceApp();
    const parent = await api.createOrganization({ name: 'parent' });
    await api.createOrganization({ name: 'kid', parentId: parent.id });
    const res = await api.call(organizationRoutes.delete, { body: { ids: [parent.id] }, lang: 'en-US' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 31, key: 'error.organization.hasChildren' });
    expect(res.json().message).toContain('parent');
    expect(await api.ok(organizationRoutes.get, { params: { id: parent.id } })).toMatchObject({ name: 'parent' });
  });

  it('deletes a parent together with its children in one call', async () => {
    const { api } = await makeDeviceApp();
    const parent = await api.createOrganization();
    const kid = await api.createOrganization({ parentId: parent.id });
    expect(await api.ok(organizationRoutes.delete, { body: { ids: [parent.id, kid.id] } })).toEqual({ deleted: 2 });
  });

  it('refuses deleting an organization that holds devices', async () => {
    const { api } = await makeDeviceApp();
    const org = await api.createOrganization({ name: 'busy' });
    await api.createDevice({ organizationId: org.id });
    const res = await api.call(organizationRoutes.delete, { body: { ids: [org.id] } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ key: 'error.organization.hasDevices' });
  });
});
