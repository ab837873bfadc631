/**
 * Every route of the OpenAPI document, called as each of the four roles: a role that holds the
 * route's permission (server/contract/permissions.ts) is let through the access hook (any answer
 * but 403 code 20), a role without it gets 403 code 20. The route's permission comes from the
 * contract's route tables; a documented route missing there fails the test, so no route is left out.
 * Over the websocket, every command type the server serves is sent as each role, and refused to
 * exactly the roles its HTTP twins refuse (tests/helpers/live-commands.ts).
 */
import { describe, expect, it } from 'vitest';
import { roleHolds } from '../../server/contract/permissions.ts';
import { roles, type Role } from '../../server/contract/user.ts';
import { WsErrorCode } from '../../server/contract/realtime.ts';
import { contractRoutes } from '../helpers/contract-routes.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { liveCommandSamples, userCommandTypes } from '../helpers/live-commands.ts';
import { LiveClient, makeLiveApp } from '../helpers/live.ts';
import { createRoleUser } from '../helpers/roles.ts';

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
    // Hundreds of calls, each hashing a password-checked token: 20 s is not enough on a busy 2-core machine.
  }, 180_000);
});

describe('permission matrix of the websocket', () => {
  it('refuses every live command type to exactly the roles its HTTP twins refuse, with UNAUTHORIZED on its cmdId', async () => {
    const t = await makeLiveApp({ listen: true });
    const org = await t.api.createOrganization();
    const device = await t.api.createDevice({ organizationId: org.id });
    const samples = liveCommandSamples(device.id);
    const served = userCommandTypes(t.app.services!.realtime!.commands);
    expect(served.filter((type) => !(type in samples)), 'live command types without a sample').toEqual([]);

    const wrong: string[] = [];
    for (const role of roles) {
      const { token } = await createRoleUser(t.api, role, [org.id]);
      const ws = await LiveClient.open(t, { token });
      for (const [i, type] of served.entries()) {
        const { body, twins } = samples[type]!;
        ws.send({ cmds: [{ type, cmdId: i + 1, ...body }] });
        await ws.roundTrip();
        const answers = ws.discard(i + 1);
        const refused = answers.some((m) => m.errorCode === WsErrorCode.UNAUTHORIZED);
        const allowed = twins.every((twin) => roleHolds(role, twin.config.permission!));
        if (allowed === refused) wrong.push(`${role} ${type}: ${JSON.stringify(answers).slice(0, 160)}`);
      }
      ws.socket.close();
    }
    expect(wrong).toEqual([]);
  });
});
