import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workbenchRoutes } from '../../server/contract/workbench.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { multipart } from '../helpers/multipart.ts';
import { authHeader, makeSignedInApp, signIn } from '../helpers/session.ts';

const NEW_PASSWORD = 'Changed#2025ok';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(56, 3)]);

type SignedInApp = Awaited<ReturnType<typeof makeSignedInApp>>;

function changeByForm(t: SignedInApp, fields: Record<string, string>) {
  const form = multipart(fields);
  return t.app.inject({
    method: 'POST',
    url: '/api/yt/user/changePasswordByAc',
    headers: { ...form.headers, ...authHeader(t.admin.token) },
    payload: form.payload,
  });
}

describe('POST /api/yt/user/changePasswordByAc (multipart form)', () => {
  it('changes the password from form fields, ends every session and lets the new password sign in', async () => {
    const t = await makeSignedInApp();
    const res = await changeByForm(t, { userId: t.admin.user.id, password: t.admin.password, resetPassword: NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);

    const me = await t.app.inject({ method: 'GET', url: '/api/yt/user/me/info', headers: authHeader(t.admin.token) });
    expect(me.statusCode).toBe(401);
    const refresh = await t.app.inject({ method: 'POST', url: '/api/auth/token', payload: { refreshToken: t.admin.refreshToken } });
    expect(refresh.statusCode).toBe(401);
    await expect(signIn(t.app, t.admin.username, t.admin.password)).rejects.toThrow();
    await expect(signIn(t.app, t.admin.username, NEW_PASSWORD)).resolves.toBeDefined();
  });

  it('refuses a weak new password with the password policy code, as the JSON call does', async () => {
    const t = await makeSignedInApp();
    const res = await changeByForm(t, { userId: t.admin.user.id, password: t.admin.password, resetPassword: 'short' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 45, key: 'error.password.policy' });
  });

  it('refuses a form without the current password with 400 code 31', async () => {
    const t = await makeSignedInApp();
    const res = await changeByForm(t, { userId: t.admin.user.id, resetPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 31 });
  });
});

describe('url-encoded form bodies', () => {
  it('signs in with a url-encoded form', async () => {
    const t = await makeSignedInApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username: t.admin.username, password: t.admin.password }).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toHaveProperty('token');
  });

  it('changes the password from a url-encoded form on the JSON call', async () => {
    const t = await makeSignedInApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/yt/user/reset',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...authHeader(t.admin.token) },
      payload: new URLSearchParams({ userId: t.admin.user.id, password: t.admin.password, resetPassword: NEW_PASSWORD }).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    await expect(signIn(t.app, t.admin.username, NEW_PASSWORD)).resolves.toBeDefined();
  });
});

describe('POST /api/yt/entitiesQuery/find', () => {
  const query = {
    entityFilter: { type: 'apiUsageState' },
    pageLink: { pageSize: 1, page: 0, sortOrder: { key: { type: 'ENTITY_FIELD', key: 'createdTime' }, direction: 'DESC' } },
    entityFields: [
      { type: 'ENTITY_FIELD', key: 'name' },
      { type: 'ENTITY_FIELD', key: 'label' },
      { type: 'ENTITY_FIELD', key: 'additionalInfo' },
    ],
    latestValues: [{ type: 'TIME_SERIES', key: 'transportApiState' }, { type: 'TIME_SERIES', key: 'nothing' }],
  };

  it("answers the gateway's one API usage state with the asked entity fields and latest values", async () => {
    const t = await makeSignedInApp();
    const res = await t.app.inject({ method: 'POST', url: '/api/yt/entitiesQuery/find', headers: authHeader(t.admin.token), payload: query });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ totalPages: 1, totalElements: 1, hasNext: false });
    expect(page.data).toHaveLength(1);
    const [entity] = page.data;
    expect(entity.entityId.entityType).toBe('API_USAGE_STATE');
    expect(entity.latest.ENTITY_FIELD.label.value).toBe(t.config.deviceSn);
    expect(entity.latest.ENTITY_FIELD.name.value).toBe(t.config.deviceSn);
    expect(entity.latest.ENTITY_FIELD.additionalInfo.value).toBe('');
    expect(entity.latest.TIME_SERIES.transportApiState.value).toBe('ENABLED');
    expect(entity.latest.TIME_SERIES.nothing).toEqual({ ts: 0, value: '' });
    expect(entity.timeseries).toEqual({});
  });

  it('answers an empty page past the first', async () => {
    const t = await makeSignedInApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/yt/entitiesQuery/find',
      headers: authHeader(t.admin.token),
      payload: { ...query, pageLink: { pageSize: 1, page: 1 } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: [], totalElements: 1, hasNext: false });
  });

  it('refuses an entity filter other than apiUsageState with 400 code 31', async () => {
    const t = await makeSignedInApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/yt/entitiesQuery/find',
      headers: authHeader(t.admin.token),
      payload: { ...query, entityFilter: { type: 'entityType', entityType: 'DEVICE' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 31 });
  });
});

describe('DELETE /api/yt/oss?deleteFilePath=', () => {
  async function uploaded(t: SignedInApp): Promise<string> {
    const form = multipart({ file: { filename: 'a.png', content: PNG } });
    const res = await t.app.inject({ method: 'POST', url: '/api/yt/oss/upload', headers: { ...form.headers, ...authHeader(t.admin.token) }, payload: form.payload });
    return (res.json() as { fileStaticUri: string }).fileStaticUri;
  }

  it('deletes an uploaded file named by its fileStaticUri, after which it is gone', async () => {
    const t = await makeSignedInApp();
    const uri = await uploaded(t);
    const res = await t.app.inject({ method: 'DELETE', url: '/api/yt/oss', query: { deleteFilePath: uri }, headers: authHeader(t.admin.token) });
    expect(res.statusCode, res.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: uri })).statusCode).toBe(404);
    const again = await t.app.inject({ method: 'DELETE', url: '/api/yt/oss', query: { deleteFilePath: uri }, headers: authHeader(t.admin.token) });
    expect(again.statusCode).toBe(404);
  });

  it('refuses paths outside the upload store with 400 and deletes nothing', async () => {
    const t = await makeSignedInApp();
    const uri = await uploaded(t);
    for (const path of ['../edge.db', '/api/yt/oss/files/../../edge.db', `${uri}/../../edge.db`, '..%2Fedge.db', '/etc/passwd', 'a.txt']) {
      const res = await t.app.inject({ method: 'DELETE', url: '/api/yt/oss', query: { deleteFilePath: path }, headers: authHeader(t.admin.token) });
      expect(res.statusCode, path).toBe(400);
      expect(res.json()).toMatchObject({ code: 31, key: 'error.upload.notStored' });
    }
    expect(existsSync(join(t.dataDir, 'edge.db'))).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: uri })).statusCode).toBe(200);
  });

  it('refuses an anonymous caller with 401', async () => {
    const t = await makeSignedInApp();
    const res = await t.app.inject({ method: 'DELETE', url: '/api/yt/oss', query: { deleteFilePath: 'x' } });
    expect(res.statusCode).toBe(401);
  });
});

describe("POST /api/deviceProfile/{id}/default (ThingsBoard's path)", () => {
  it('makes the product the default and takes the flag from the previous one', async () => {
    const { api, app } = await makeDeviceApp();
    const first = await api.createProduct();
    const second = await api.createProduct();
    const res = await app.inject({ method: 'POST', url: `/api/deviceProfile/${second.id}/default`, headers: authHeader(api.token!) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: second.id, isDefault: true });
    const before = await app.inject({ method: 'GET', url: `/api/yt/device_profile/${first.id}`, headers: authHeader(api.token!) });
    expect(before.json().isDefault).toBe(false);
  });

  it('answers 404 with the not-found key (not an unknown route) for an unknown product', async () => {
    const { api, app } = await makeDeviceApp();
    const res = await app.inject({ method: 'POST', url: '/api/deviceProfile/no-such-product/default', headers: authHeader(api.token!) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 32, key: 'error.notFound' });
  });
});

describe('GET /api/yt/getMenuList', () => {
  it("answers the console's menu tree in sort order, with the spec's meta and without the sign-in pages", async () => {
    const t = await makeSignedInApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/yt/getMenuList', headers: authHeader(t.admin.token) });
    expect(res.statusCode, res.body).toBe(200);
    const tree = res.json() as { name: string; component: string | null; meta: Record<string, unknown>; children?: { name: string; component: string | null; meta: Record<string, unknown> }[] }[];
    expect(tree.map((n) => n.name)).toEqual([
      'Dashboard', 'DeviceManage', 'SoftGateway', 'Maintenance', 'RuleEngine', 'Visualization', 'VideoCenter', 'System', 'OperationManage',
    ]);
    const deviceManage = tree[1]!;
    expect(deviceManage.meta).toMatchObject({ menuType: 'category', icon: 'device', title: 'menu:deviceManage', status: 1 });
    expect(deviceManage.children!.map((c) => c.name)).toEqual(['Product', 'ProductDetail', 'Device', 'DeviceDetail', 'Category']);
    const detail = deviceManage.children![1]!;
    expect(detail).toMatchObject({ component: 'ProductDetailPage', meta: { menuType: 'menu', hideMenu: true, currentActiveMenu: '/device-manage/product' } });
    expect(JSON.stringify(tree)).not.toContain('LoginPage');
  });

  it('refuses an anonymous caller with 401', async () => {
    const t = await makeSignedInApp();
    expect((await t.app.inject({ method: 'GET', url: '/api/yt/getMenuList' })).statusCode).toBe(401);
  });
});

describe('dates as YYYY-MM-DD HH:mm:ss in console calls', () => {
  it('takes a custom message-volume range as text in the gateway’s time zone, as if given in epoch milliseconds, and refuses text that is no date', async () => {
    const { api } = await makeDeviceApp();
    const startTs = new Date(2025, 0, 1, 8, 0, 0).getTime();
    const endTs = new Date(2025, 0, 2, 8, 30, 0).getTime();
    const asText = await api.call(workbenchRoutes.messages, { query: { range: 'custom', startTs: '2025-01-01 08:00:00', endTs: '2025-01-02 08:30:00' } });
    expect(asText.statusCode, asText.body).toBe(200);
    const asMs = await api.ok(workbenchRoutes.messages, { query: { range: 'custom', startTs, endTs } });
    expect(asText.json()).toEqual(asMs);

    for (const text of ['2025-02-30 08:00:00', '2025-01-01T08:00:00', 'yesterday']) {
      const res = await api.call(workbenchRoutes.messages, { query: { range: 'custom', startTs: text, endTs: '2025-03-01 00:00:00' } });
      expect(res.statusCode, text).toBe(400);
      expect(res.json()).toMatchObject({ code: 31 });
    }
  });
});
