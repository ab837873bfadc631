import { describe, expect, it } from 'vitest';
import { noticeRoutes, type NoticeBody } from '../../server/contract/notice.ts';
import { EventBus } from '../../server/lib/event-bus.ts';
import { ContractClient, makeDeviceApp, type DeviceTestApp } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';
import { createRoleUser } from '../helpers/roles.ts';
import { createUser, signIn } from '../helpers/session.ts';

const PASSWORD = 'Reader#2024ok';

/** The app with two more users signed in, and every `notice.published` announced. */
async function setup(): Promise<DeviceTestApp & { alice: ContractClient & { id: string }; bob: ContractClient & { id: string }; published: { noticeId: string; userIds: string[] }[] }> {
  const bus = new EventBus();
  const published: { noticeId: string; userIds: string[] }[] = [];
  bus.on('notice.published', (e) => published.push(e));
  const t = await makeDeviceApp({ bus });
  const reader = async (name: string) => {
    const user = await createUser(t, name, PASSWORD);
    const client = new ContractClient(t.app, (await signIn(t.app, name, PASSWORD)).token);
    return Object.assign(client, { id: user.id });
  };
  return { ...t, alice: await reader('alice'), bob: await reader('bob'), published };
}

function notice(body: Partial<NoticeBody> = {}): NoticeBody {
  return { type: 'NOTICE', title: 'Maintenance', content: '<p>Gateway restarts at <b>22:00</b></p>', receiverType: 'ALL', ...body };
}

describe('notices', () => {
  it('creates a draft, edits it, lists it by type and status, and deletes it', async () => {
    const t = await setup();
    const created = await t.api.ok(noticeRoutes.create, { body: notice() });
    expect(created).toMatchObject({ status: 'DRAFT', type: 'NOTICE', receiverType: 'ALL', receiverIds: [], publishedTime: null });
    const edited = await t.api.ok(noticeRoutes.update, { body: { ...notice({ type: 'MEETING', title: 'Weekly meeting' }), id: created.id } });
    expect(edited).toMatchObject({ id: created.id, type: 'MEETING', title: 'Weekly meeting' });
    expect((await t.api.ok(noticeRoutes.list, { query: { type: 'MEETING', status: 'DRAFT' } })).items.map((n) => n.id)).toEqual([created.id]);
    expect((await t.api.ok(noticeRoutes.list, { query: { type: 'NOTICE' } })).total).toBe(0);
    expect(await t.api.ok(noticeRoutes.delete, { body: { ids: [created.id, 'unknown'] } })).toEqual({ deleted: 1 });
    expect((await t.api.ok(noticeRoutes.list)).total).toBe(0);
  });

  it('strips scripts, event handlers and javascript: links from the content', async () => {
    const t = await setup();
    const content =
      '<p onclick="steal()">Hi<script>alert(1)</script></p><img src=x onerror=alert(1)>' +
      '<a href="javascript:alert(1)">x</a><a href="&#106;avascript:alert(2)">y</a><a href="https://example.com/a">ok</a><iframe src="//evil"></iframe>';
    const created = await t.api.ok(noticeRoutes.create, { body: notice({ content }) });
    expect(created.content).toBe(
      '<p>Hi</p><a>x</a><a>y</a><a href="https://example.com/a" target="_blank" rel="noopener noreferrer">ok</a>',
    );
    expect(created.content).not.toMatch(/script|onerror|onclick|iframe/i);
  });

  it('drops a link that looks like a path but leads to another site, and keeps a same-origin path normalised', async () => {
    const t = await setup();
    const content = '<a href="/\\evil.example/">a</a><a href="//evil.example">b</a><a href="/system/../notice">c</a>';
    const created = await t.api.ok(noticeRoutes.create, { body: notice({ content }) });
    expect(created.content).toBe('<a>a</a><a>b</a><a href="/notice" target="_blank" rel="noopener noreferrer">c</a>');
  });

  it('publishes to all users: each sees it unread in my notices, reads it, and the event names them', async () => {
    const t = await setup();
    const created = await t.api.ok(noticeRoutes.create, { body: notice() });
    expect((await t.alice.ok(noticeRoutes.me)).total).toBe(0);
    const published = await t.api.ok(noticeRoutes.publish, { params: { id: created.id } });
    expect(published).toMatchObject({ status: 'PUBLISHED', publishedTime: expect.any(Number) });
    expect(t.published).toHaveLength(1);
    expect(t.published[0]!.noticeId).toBe(created.id);
    expect(t.published[0]!.userIds).toEqual(expect.arrayContaining([t.alice.id, t.bob.id]));

    const mine = await t.alice.ok(noticeRoutes.me);
    expect(mine).toMatchObject({ total: 1, unread: 1, items: [{ id: created.id, read: false, readTime: null }] });
    expect(await t.alice.ok(noticeRoutes.read, { params: { id: created.id } })).toEqual({ ok: true });
    expect(await t.alice.ok(noticeRoutes.me)).toMatchObject({ unread: 0, items: [{ read: true, readTime: expect.any(Number) }] });
    expect((await t.alice.ok(noticeRoutes.me, { query: { unreadOnly: true } })).total).toBe(0);
    // Bob's read state is his own.
    expect(await t.bob.ok(noticeRoutes.me, { query: { unreadOnly: true } })).toMatchObject({ total: 1, unread: 1 });
  });

  it('publishes to an organization’s own members only, and to a department’s members and those of the organizations below', async () => {
    const t = await setup();
    const plant = await t.api.createOrganization({ name: 'Plant' });
    const line = await t.api.createOrganization({ name: 'Line', parentId: plant.id });
    const atPlant = await createRoleUser(t.api, 'CUSTOMER_USER', [plant.id]);
    const atLine = await createRoleUser(t.api, 'CUSTOMER_USER', [line.id]);
    const publish = async (receiverType: 'ORGANIZATION' | 'DEPARTMENT'): Promise<string[]> => {
      const created = await t.api.ok(noticeRoutes.create, { body: notice({ title: receiverType, receiverType, receiverIds: [plant.id] }) });
      await t.api.ok(noticeRoutes.publish, { params: { id: created.id } });
      return t.published.at(-1)!.userIds;
    };
    expect(await publish('ORGANIZATION')).toEqual([atPlant.user.id]);
    expect((await publish('DEPARTMENT')).sort()).toEqual([atPlant.user.id, atLine.user.id].sort());
    expect((await atPlant.api.ok(noticeRoutes.me)).items.map((n) => n.title).sort()).toEqual(['DEPARTMENT', 'ORGANIZATION']);
    expect((await atLine.api.ok(noticeRoutes.me)).items.map((n) => n.title)).toEqual(['DEPARTMENT']);
    expect((await t.alice.ok(noticeRoutes.me)).total).toBe(0);
  });

  it('publishes to individual users only', async () => {
    const t = await setup();
    const created = await t.api.ok(noticeRoutes.create, { body: notice({ receiverType: 'INDIVIDUAL', receiverIds: [t.alice.id] }) });
    await t.api.ok(noticeRoutes.publish, { params: { id: created.id } });
    expect(t.published[0]!.userIds).toEqual([t.alice.id]);
    expect((await t.alice.ok(noticeRoutes.me)).total).toBe(1);
    expect((await t.bob.ok(noticeRoutes.me)).total).toBe(0);
    // Bob is no receiver: marking it read answers 404, as for a notice that does not exist.
    expectError(await t.bob.call(noticeRoutes.read, { params: { id: created.id } }), 404, 32, 'error.notFound');
  });

  it('refuses to edit or publish a published notice with 409', async () => {
    const t = await setup();
    const created = await t.api.ok(noticeRoutes.create, { body: notice() });
    await t.api.ok(noticeRoutes.publish, { params: { id: created.id } });
    expectError(await t.api.call(noticeRoutes.publish, { params: { id: created.id } }), 409, 35, 'error.notice.published');
    expectError(await t.api.call(noticeRoutes.update, { body: { ...notice(), id: created.id } }), 409, 35, 'error.notice.published');
    expect(t.published).toHaveLength(1);
  });

  it.each([
    ['no receivers for INDIVIDUAL', { receiverType: 'INDIVIDUAL', receiverIds: [] }, 'error.notice.receiversRequired', 'body.receiverIds'],
    ['an unknown user', { receiverType: 'INDIVIDUAL', receiverIds: ['nobody'] }, 'error.notice.receiverUnknown', 'body.receiverIds'],
    ['an unknown organization', { receiverType: 'DEPARTMENT', receiverIds: ['nowhere'] }, 'error.notice.receiverUnknown', 'body.receiverIds'],
    ['an empty title', { title: '' }, 'error.notice.title', 'body.title'],
    ['a title of 101 characters', { title: 'x'.repeat(101) }, 'error.notice.title', 'body.title'],
    ['a title of spaces', { title: '   ' }, 'error.notice.title', 'body.title'],
    ['content over 20000 characters', { content: 'x'.repeat(20_001) }, 'error.notice.content', 'body.content'],
    ['an unknown type', { type: 'MEMO' }, 'error.field.choice', 'body.type'],
  ])('refuses %s with 400 and the rule', async (_, patch, key, field) => {
    const t = await setup();
    const res = await t.api.call(noticeRoutes.create, { body: { ...notice(), ...patch } as NoticeBody });
    expect(expectError(res, 400, 31, key).details).toEqual(expect.arrayContaining([expect.objectContaining({ field, key })]));
  });

  it('strips unknown fields and answers 404 for an unknown notice', async () => {
    const t = await setup();
    expect(await t.api.ok(noticeRoutes.create, { body: { ...notice(), extra: 1 } })).not.toHaveProperty('extra');
    expectError(await t.api.call(noticeRoutes.publish, { params: { id: 'missing' } }), 404, 32, 'error.notFound');
  });

  it('answers the receiver rule in the requested language', async () => {
    const t = await setup();
    const body = notice({ receiverType: 'INDIVIDUAL', receiverIds: [] });
    expect((await t.api.call(noticeRoutes.create, { body, lang: 'en-US' })).json().message).toBe('Please choose at least one receiver');
    expect((await t.api.call(noticeRoutes.create, { body, lang: 'zh-CN' })).json().message).toBe('请选择至少一个接收者');
  });
});
