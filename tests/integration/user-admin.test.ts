import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { authRoutes } from '../../server/contract/auth.ts';
import { WS_POLICY_VIOLATION } from '../../server/contract/realtime.ts';
import { userAdminRoutes } from '../../server/contract/user-admin.ts';
import { userRoutes } from '../../server/contract/user.ts';
import { migrations } from '../../server/app.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { hashPassword } from '../../server/lib/password.ts';
import { makeApp, tempDir } from '../helpers/app.ts';
import { ContractClient, makeDeviceApp } from '../helpers/devices.ts';
import { LiveClient, makeLiveApp } from '../helpers/live.ts';
import { createRoleUser, ROLE_PASSWORD } from '../helpers/roles.ts';
import { signIn } from '../helpers/session.ts';

describe('account administration', () => {
  it('creates a user who signs in with the given password, and lists them with role and organizations', async () => {
    const { api, app } = await makeDeviceApp();
    const org = await api.createOrganization();
    const created = await api.ok(userAdminRoutes.create, {
      body: { username: 'operator1', realName: '值班员', role: 'CUSTOMER_USER', organizationIds: [org.id], enabled: true, password: 'Operator#2024' },
    });
    expect(created).toMatchObject({ username: 'operator1', role: 'CUSTOMER_USER', organizationIds: [org.id], enabled: true, mustChangePassword: false });
    expect((await signIn(app, 'operator1', 'Operator#2024')).token).toEqual(expect.any(String));

    const page = await api.ok(userAdminRoutes.list, { query: { username: 'operat', role: 'CUSTOMER_USER' } });
    expect(page).toMatchObject({ total: 1, items: [{ id: created.id, organizationIds: [org.id] }] });
    expect((await api.ok(userAdminRoutes.list, { query: { role: 'SYS_ADMIN' } })).total).toBe(1);
  });

  it('refuses a taken username (any case), a weak password and an unknown organization', async () => {
    const { api } = await makeDeviceApp();
    const [admin] = (await api.ok(userAdminRoutes.list)).items;
    const base = { realName: 'x', role: 'TENANT_ADMIN' as const, organizationIds: [], enabled: true, password: 'Strong#Pass1' };
    const taken = await api.call(userAdminRoutes.create, { body: { ...base, username: admin!.username.toUpperCase() } });
    expect(taken.json()).toMatchObject({ code: 30, key: 'error.userAdmin.usernameTaken' });
    const weak = await api.call(userAdminRoutes.create, { body: { ...base, username: 'weak', password: 'weak' } });
    expect(weak.json()).toMatchObject({ code: 45, key: 'error.password.policy' });
    const org = await api.call(userAdminRoutes.create, { body: { ...base, username: 'orgless', organizationIds: ['nope'] } });
    expect(org.json()).toMatchObject({ code: 30, key: 'error.userAdmin.organizationNotFound' });
    expect((await api.ok(userAdminRoutes.list)).total).toBe(1);
  });

  it('keeps the last enabled super administrator: no disable, demotion or delete (409), and allows it once another exists', async () => {
    const { api } = await makeDeviceApp();
    const [me] = (await api.ok(userAdminRoutes.list)).items;
    const edit = { id: me!.id, username: me!.username, realName: me!.realName, organizationIds: [] };
    const disable = await api.call(userAdminRoutes.update, { body: { ...edit, role: 'SYS_ADMIN', enabled: false } });
    expect(disable.statusCode).toBe(409);
    expect(disable.json()).toMatchObject({ code: 35, key: 'error.userAdmin.lastAdmin' });
    expect((await api.call(userAdminRoutes.update, { body: { ...edit, role: 'TENANT_ADMIN', enabled: true } })).statusCode).toBe(409);
    expect((await api.call(userAdminRoutes.delete, { body: { ids: [me!.id] } })).statusCode).toBe(409);

    const second = await createRoleUser(api, 'SYS_ADMIN');
    const disabledSecond = await api.call(userAdminRoutes.update, {
      body: { id: second.user.id, username: second.user.username, realName: 'x', role: 'SYS_ADMIN', organizationIds: [], enabled: false },
    });
    expect(disabledSecond.statusCode).toBe(200);
    expect((await api.call(userAdminRoutes.delete, { body: { ids: [me!.id] } })).statusCode).toBe(409);
    expect((await api.call(userAdminRoutes.delete, { body: { ids: [second.user.id] } })).json()).toEqual({ deleted: 1 });
  });

  it('ends a disabled user’s sessions and websockets at once, and refuses their sign-in', async () => {
    const t = await makeLiveApp({ listen: true });
    const org = await t.api.createOrganization();
    const viewer = await createRoleUser(t.api, 'CUSTOMER_USER', [org.id]);
    const ws = await LiveClient.open(t, { token: viewer.token });
    expect((await viewer.api.call(userRoutes.me)).statusCode).toBe(200);

    await t.api.ok(userAdminRoutes.update, {
      body: { id: viewer.user.id, username: viewer.user.username, realName: 'x', role: 'CUSTOMER_USER', organizationIds: [org.id], enabled: false },
    });
    expect((await ws.closed).code).toBe(WS_POLICY_VIOLATION);
    expect((await viewer.api.call(userRoutes.me)).json()).toMatchObject({ code: 10 });
    expect((await t.anonymous.call(authRoutes.token, { body: { refreshToken: viewer.refreshToken } })).statusCode).toBe(401);
    const login = await t.anonymous.call(authRoutes.login, { body: { username: viewer.user.username, password: ROLE_PASSWORD } });
    expect(login.json()).toMatchObject({ code: 10, key: 'error.auth.accountDisabled' });
  });

  it('ends a deleted user’s sessions and websockets at once', async () => {
    const t = await makeLiveApp({ listen: true });
    const operator = await createRoleUser(t.api, 'TENANT_ADMIN');
    const ws = await LiveClient.open(t, { token: operator.token });
    expect(await t.api.ok(userAdminRoutes.delete, { body: { ids: [operator.user.id] } })).toEqual({ deleted: 1 });
    expect((await ws.closed).code).toBe(WS_POLICY_VIOLATION);
    expect((await operator.api.call(userRoutes.me)).statusCode).toBe(401);
  });

  it('resets a password: old sessions end, the new one signs in, and the user is told to change it', async () => {
    const { api, app } = await makeDeviceApp();
    const operator = await createRoleUser(api, 'TENANT_ADMIN');
    await api.ok(userAdminRoutes.resetPassword, { body: { id: operator.user.id, password: 'Temp#Pass2024' } });
    expect((await operator.api.call(userRoutes.me)).statusCode).toBe(401);
    const { token } = await signIn(app, operator.user.username, 'Temp#Pass2024');
    const mine = new ContractClient(app, token);
    expect(await mine.ok(userAdminRoutes.myPermissions)).toMatchObject({ role: 'TENANT_ADMIN', mustChangePassword: true });

    await mine.ok(userRoutes.resetPassword, { body: { userId: operator.user.id, password: 'Temp#Pass2024', resetPassword: 'Mine#Pass2024' } });
    const after = new ContractClient(app, (await signIn(app, operator.user.username, 'Mine#Pass2024')).token);
    expect(await after.ok(userAdminRoutes.myPermissions)).toMatchObject({ mustChangePassword: false });
  });

  it('answers a user’s permission list from the table', async () => {
    const { api } = await makeDeviceApp();
    const customer = await createRoleUser(api, 'CUSTOMER_USER');
    const mine = await customer.api.ok(userAdminRoutes.myPermissions);
    expect(mine.permissions).toEqual(expect.arrayContaining(['device:list', 'alarm:handle', 'scene_linkage:execute']));
    expect(mine.permissions).not.toContain('device:update');
    expect(mine.permissions).not.toContain('user:list');
  });
});

describe('migration to roles', () => {
  it('makes the first administrator of an existing data dir SYS_ADMIN', async () => {
    const dataDir = tempDir();
    const db = openDatabase(join(dataDir, 'edge.db'), migrations.filter((m) => m.name < '0025'));
    const insert = db.prepare('INSERT INTO user (id, username, password_hash, role, real_name, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?, ?)');
    insert.run('first', 'owner', await hashPassword('Owner#Pass2024'), 'TENANT_ADMIN', 'owner', 1000, 1000);
    db.close();
    const t = await makeApp({ dataDir });
    const { token } = await signIn(t.app, 'owner', 'Owner#Pass2024');
    expect(await new ContractClient(t.app, token).ok(userAdminRoutes.myPermissions)).toMatchObject({ role: 'SYS_ADMIN' });
  });
});
