import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditLogRoutes, type AuditLog } from '../../server/contract/audit-log.ts';
import { languages } from '../../server/contract/languages.ts';
import { operationIdOf, type RouteDef } from '../../server/contract/route.ts';
import { commandRoutes } from '../../server/contract/command.ts';
import { userSettingsRoutes } from '../../server/contract/user-settings.ts';
import { makeDeviceApp, type DeviceTestApp } from '../helpers/devices.ts';
import { createUser, signIn } from '../helpers/session.ts';

const root = join(import.meta.dirname, '../..');

/** The audit descriptions of a language: operationId → text. */
function operationTexts(lng: string): Record<string, string> {
  return (JSON.parse(readFileSync(join(root, 'locales', lng, 'auditLog.json'), 'utf8')) as { operations: Record<string, string> }).operations;
}

/** Every route of the contract's route tables (server/contract/*.ts). */
async function contractRoutes(): Promise<RouteDef[]> {
  const found: RouteDef[] = [];
  const dir = join(root, 'server/contract');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    for (const table of Object.values((await import(join(dir, file))) as Record<string, unknown>)) {
      if (typeof table !== 'object' || table === null) continue;
      for (const def of Object.values(table as Record<string, Partial<RouteDef> | null>)) {
        if (typeof def?.method === 'string' && typeof def.url === 'string' && typeof def.config === 'object') found.push(def as RouteDef);
      }
    }
  }
  return found;
}

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

  it('keeps the call’s operationId, the key of its description in both languages, and none for a sign-in', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const create = (await rows(t, { action: 'POST /api/yt/device' })).find((r) => r.action === 'POST /api/yt/device');
    expect(create).toMatchObject({ operation: 'postYtDevice', entityId: device.id });
    expect(operationTexts('zh_CN')[create!.operation!]).toBe('新增设备');
    expect(operationTexts('en_US')[create!.operation!]).toBe('Create a device');
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, { operationId?: string }>> };
    expect(doc.paths['/api/yt/device']?.post?.operationId).toBe('postYtDevice');
    expect((await rows(t, { action: 'auth.signIn' }))[0]).toMatchObject({ operation: null, summary: null });
  });

  it('describes every audited route in every language, names no route that is gone, and gives every documented route its own operationId', async () => {
    const routes = await contractRoutes();
    const audited = routes.filter((r) => r.method !== 'GET' && r.config.access !== 'public' && !r.config.noAudit).map((r) => operationIdOf(r.method, r.url));
    expect(audited.length).toBeGreaterThan(50);
    for (const lng of languages) {
      const texts = operationTexts(lng);
      expect(audited.filter((id) => !texts[id]?.trim()), `routes without a description in ${lng}`).toEqual([]);
      expect(Object.keys(texts).filter((id) => !audited.includes(id)), `descriptions of no audited route in ${lng}`).toEqual([]);
    }
    const t = await makeDeviceApp();
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, { operationId?: string }>> };
    const ids = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    expect(ids.filter((id) => !id)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
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

  it('counts refused sign-ins per account, address and window, and a flood of them never evicts what the administrator did', { timeout: 120_000 }, async () => {
    const t = await makeDeviceApp({ tuning: { auditLog: { maxRows: 10, maxRefusalRows: 3, pruneIntervalMs: 100 } } });
    await t.api.createOrganization();
    await t.api.createOrganization();
    const adminRows = (await rows(t)).filter((r) => r.username === t.admin.username && r.userId !== null);
    expect(adminRows.filter((r) => r.action.startsWith('POST '))).toHaveLength(2);

    const attempt = (username: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password: 'Wrong#2024ok' }, remoteAddress: '203.0.113.9' });
    for (let i = 0; i < 30; i++) await attempt(`ghost${i}`);
    const answers = new Set<number>();
    for (let i = 0; i < 20; i++) answers.add((await attempt('ghost-again')).statusCode);
    expect(answers).toContain(429); // throttled attempts are counted too

    const refusals = async (): Promise<AuditLog[]> => rows(t, { action: 'signInFailed' });
    const deadline = Date.now() + 60_000;
    while ((await refusals()).length > 3) {
      if (Date.now() > deadline) throw new Error('refused sign-ins were never pruned to their cap');
      await new Promise((r) => setTimeout(r, 100));
    }
    const summary = (await refusals()).find((r) => r.username === 'ghost-again');
    expect(summary).toMatchObject({ sourceAddress: '203.0.113.9', attempts: 20, userId: null });
    const after = await rows(t);
    for (const row of adminRows) expect(after, row.action).toContainEqual(row);
  });

  it('prunes rows older than the age limit', async () => {
    const t = await makeDeviceApp({ tuning: { auditLog: { maxAgeDays: 1 } } });
    await t.api.createOrganization();
    expect(t.app.services!.auditLog!.prune(Date.now() + 2 * 24 * 3600 * 1000)).toBeGreaterThan(0);
    expect(await rows(t)).toEqual([]);
  });
});
