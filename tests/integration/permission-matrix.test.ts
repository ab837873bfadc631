/**
 * Every route of the OpenAPI document, called as each of the four roles: a role that holds the
 * route's permission (server/contract/permissions.ts) is let through the access hook (any answer
 * but 403 code 20), a role without it gets 403 code 20. The route's permission comes from the
 * contract's route tables; a documented route missing there fails the test, so no route is left out.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { roleHolds } from '../../server/contract/permissions.ts';
import type { RouteDef } from '../../server/contract/route.ts';
import { roles, type Role } from '../../server/contract/user.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { createRoleUser } from '../helpers/roles.ts';

const contractDir = join(import.meta.dirname, '../../server/contract');

function isRouteDef(value: unknown): value is RouteDef {
  const v = value as Partial<RouteDef> | null;
  return typeof v === 'object' && v !== null && typeof v.method === 'string' && typeof v.url === 'string' && typeof v.config === 'object';
}

/** `GET /api/yt/device/{id}` → the route's config, from every route table of server/contract. */
async function contractRoutes(): Promise<Map<string, RouteDef['config']>> {
  const byKey = new Map<string, RouteDef['config']>();
  for (const file of readdirSync(contractDir).filter((f) => f.endsWith('.ts'))) {
    const exports = (await import(join(contractDir, file))) as Record<string, unknown>;
    for (const table of Object.values(exports)) {
      if (typeof table !== 'object' || table === null) continue;
      for (const def of Object.values(table as Record<string, unknown>)) {
        if (isRouteDef(def)) byKey.set(`${def.method} ${def.url.replace(/:(\w+)/g, '{$1}')}`, def.config);
      }
    }
  }
  return byKey;
}

/** Routes that end the caller's session run last, so the other calls still have one. */
const sessionEnding = new Set(['POST /api/auth/logout']);

describe('permission matrix', () => {
  it('lets each role through exactly the documented routes its permissions name, and refuses the rest with 403 code 20', async () => {
    const t = await makeDeviceApp();
    const org = await t.api.createOrganization();
    const tokens: Record<Role, string> = { SYS_ADMIN: '', PLATFORM_ADMIN: '', TENANT_ADMIN: '', CUSTOMER_USER: '' };
    for (const role of roles) tokens[role] = (await createRoleUser(t.api, role, [org.id])).token;

    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const known = await contractRoutes();
    const calls: { key: string; method: string; path: string; permission: string }[] = [];
    const unknown: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        const key = `${method.toUpperCase()} ${path}`;
        const config = known.get(key);
        if (!config) unknown.push(key);
        else if (config.access === 'user') calls.push({ key, method: method.toUpperCase(), path, permission: config.permission! });
        else if (config.permission) calls.push({ key, method: method.toUpperCase(), path, permission: config.permission });
      }
    }
    expect(unknown, 'documented routes the contract does not define').toEqual([]);
    calls.sort((a, b) => Number(sessionEnding.has(a.key)) - Number(sessionEnding.has(b.key)));

    const wrong: string[] = [];
    for (const role of roles) {
      for (const call of calls) {
        const res = await t.app.inject({
          method: call.method as 'GET',
          url: call.path.replace(/\{(\w+)\}/g, 'matrix-$1'),
          headers: { authorization: `Bearer ${tokens[role]}` },
        });
        const refused = res.statusCode === 403 && (res.json() as { code?: number }).code === 20;
        const allowed = roleHolds(role, call.permission);
        if (allowed === refused || res.statusCode === 401) wrong.push(`${role} ${call.key} (${call.permission}): ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
    // Every role was refused somewhere and let through somewhere: the matrix is not trivially one-sided.
    expect(calls.length).toBeGreaterThan(90);
  });
});
