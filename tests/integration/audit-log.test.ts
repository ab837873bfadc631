import { describe, expect, it } from 'vitest';
import { auditLogRoutes, type AuditLog } from '../../server/contract/audit-log.ts';
import { commandRoutes } from '../../server/contract/command.ts';
import { userSettingsRoutes } from '../../server/contract/user-settings.ts';
import { makeDeviceApp, type DeviceTestApp } from '../helpers/devices.ts';
import { createUser, signIn } from '../helpers/session.ts';

async function rows(t: DeviceTestApp, query: Record<string, string | number> = {}): Promise<AuditLog[]> {
  return (await t.api.ok(auditLogRoutes.list, { query: { pageSize: 100, ...query } })).items;
}

describe('audit log', () => {
  it('records a sign-in and a failed sign-in with user and source address', async () => {
    const t = await makeDeviceApp();
    await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: t.admin.username, password: 'Wrong#2024ok' }, remoteAddress: '10.0.0.7' });
    await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'ghost', password: 'Wrong#2024ok' }, remoteAddress: '10.0.0.8' });
    const failed = await rows(t, { action: 'signInFailed' });
    expect(failed.map((r) => [r.username, r.sourceAddress])).toEqual([['ghost', '10.0.0.8'], [t.admin.username, '10.0.0.7']]);
    expect(failed[0]!.userId).toBeNull();
    const signedIn = await rows(t, { action: 'auth.signIn' });
    expect(signedIn.some((r) => r.action === 'auth.signIn' && r.username === t.admin.username && r.userId !== null)).toBe(true);
  });

  it('records a device create with the created id, and a command with the device id', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const create = (await rows(t, { action: 'POST /api/yt/device' })).find((r) => r.action === 'POST /api/yt/device');
    expect(create).toMatchObject({ entityId: device.id, statusCode: 200, username: t.admin.username, sourceAddress: '127.0.0.1' });
    expect(create!.summary).toEqual(expect.any(String));

    await t.api.ok(commandRoutes.send, {
      params: { id: device.id },
      body: { commandType: 'CUSTOM', callType: 'ASYNC', way: 'oneway', content: '{"method":"ping"}' },
    });
    const command = await rows(t, { action: '/command' });
    expect(command).toEqual([expect.objectContaining({ action: 'POST /api/yt/device/:id/command', entityId: device.id })]);
  });

  it('records nothing for reads and refusals', async () => {
    const t = await makeDeviceApp();
    const before = (await t.api.ok(auditLogRoutes.list)).total;
    await t.api.call(commandRoutes.send, { params: { id: 'missing' }, body: { commandType: 'CUSTOM', callType: 'ASYNC', way: 'oneway', content: '{}' } });
    await t.api.ok(auditLogRoutes.list);
    expect((await t.api.ok(auditLogRoutes.list)).total).toBe(before);
  });

  it('leaves out own console settings', async () => {
    const t = await makeDeviceApp();
    await t.api.ok(userSettingsRoutes.put, { body: { navMode: 'top' } });
    expect(await rows(t, { action: 'settings' })).toEqual([]);
  });

  it('filters by user and time range', async () => {
    const t = await makeDeviceApp();
    const other = await createUser(t, 'operator', 'Operator#2024');
    await signIn(t.app, 'operator', 'Operator#2024');
    const mine = await rows(t, { userId: other.id });
    expect(mine.map((r) => r.action)).toEqual(['auth.signIn']);
    expect(await rows(t, { userId: other.id, startTime: mine[0]!.time + 1 })).toEqual([]);
    expect(await rows(t, { userId: other.id, endTime: mine[0]!.time })).toHaveLength(1);
    const oldestFirst = await rows(t, { sortField: 'time', sortOrder: 'ascend' });
    expect(oldestFirst.map((r) => r.id)).toEqual((await rows(t)).map((r) => r.id).reverse());
  });

  it('prunes to the row cap, keeping the newest rows', async () => {
    const t = await makeDeviceApp({ tuning: { auditLog: { maxRows: 3 } } });
    for (let i = 0; i < 5; i += 1) await t.api.createOrganization();
    const newest = (await rows(t)).slice(0, 3);
    expect(t.app.services!.auditLog!.prune()).toBeGreaterThan(0);
    expect(await rows(t)).toEqual(newest);
  });

  it('prunes rows older than the age limit', async () => {
    const t = await makeDeviceApp({ tuning: { auditLog: { maxAgeDays: 1 } } });
    await t.api.createOrganization();
    expect(t.app.services!.auditLog!.prune(Date.now() + 2 * 24 * 3600 * 1000)).toBeGreaterThan(0);
    expect(await rows(t)).toEqual([]);
  });
});
