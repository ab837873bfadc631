/**
 * The scope matrix: a customer of one organization calls every route of the OpenAPI document and
 * sends every live command type of /api/ws naming another organization's device, product and
 * organization, while that device reports, raises an alarm and has it acknowledged; nothing the
 * customer receives names them. Route and command lists come from the server (the OpenAPI
 * document, the live command registry), so a new one is in the matrix without being added here.
 */
import { describe, expect, it } from 'vitest';
import { alarmRoutes } from '../../server/contract/alarm.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { roleHolds } from '../../server/contract/permissions.ts';
import { WsErrorCode, type AlarmDataUpdate } from '../../server/contract/realtime.ts';
import { contractRoutes } from '../helpers/contract-routes.ts';
import { liveCommandSamples, userCommandTypes } from '../helpers/live-commands.ts';
import { LiveClient } from '../helpers/live.ts';
import { createRoleUser } from '../helpers/roles.ts';
import { createScene, makeBoilerApp, overheatScene, sendTemperature } from '../helpers/scenes.ts';

/** Routes that end the caller's session or change what the matrix needs: called last, or not at all. */
const skipped = new Set(['POST /api/auth/logout']);

async function scopedBoiler() {
  const t = await makeBoilerApp();
  const other = await t.api.createOrganization({ name: 'Matrix_other_org' });
  const theirs = await t.api.ok(deviceRoutes.update, {
    body: { id: t.device.id, name: t.device.name, deviceType: t.device.deviceType, deviceProfileId: t.device.deviceProfileId, organizationId: other.id },
  });
  const plant = await t.api.createOrganization({ name: 'Matrix_plant' });
  const mine = await t.api.createDevice({ organizationId: plant.id });
  const customer = await createRoleUser(t.api, 'CUSTOMER_USER', [plant.id]);
  await createScene(t, overheatScene(t.product.id));
  // What must never reach the customer: the foreign device, its product and its organization (by
  // id, and by the names that are unique; the product's name is a prefix of the customer's own).
  const secrets = [theirs.id, theirs.name, t.product.id, other.id, other.name];
  return { t, theirs, mine, other, customer, secrets };
}

function leaks(text: string, secrets: readonly string[]): string[] {
  return secrets.filter((s) => text.includes(s));
}

describe('scope matrix of a customer', () => {
  it('answers every route of the OpenAPI document without another organization’s device, product or organization', async () => {
    const { t, theirs, other, customer, secrets } = await scopedBoiler();
    await sendTemperature(t, 95);
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const known = await contractRoutes();
    const params: Record<string, string> = { id: theirs.id, deviceId: theirs.id, deviceProfileId: theirs.deviceProfileId, organizationId: other.id };
    const wrong: string[] = [];
    let called = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        const key = `${method.toUpperCase()} ${path}`;
        const permission = known.get(key)?.permission;
        if (skipped.has(key) || (permission && !roleHolds('CUSTOMER_USER', permission))) continue;
        const res = await t.app.inject({
          method: method.toUpperCase() as 'GET',
          url: path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? `matrix-${name}`),
          headers: { authorization: `Bearer ${customer.token}` },
          ...(method === 'get' || method === 'delete' ? {} : { payload: {} }),
        });
        called += 1;
        const found = leaks(res.body, secrets);
        if (res.statusCode >= 500 || found.length) wrong.push(`${key}: ${res.statusCode} names ${found.join(', ')}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(called).toBeGreaterThan(40);
  });

  it('answers every live command type naming another organization’s device with nothing of it, then and after it reports, alarms and is acknowledged', async () => {
    const { t, theirs, customer, secrets } = await scopedBoiler();
    const samples = liveCommandSamples(theirs.id);
    const served = userCommandTypes(t.app.services!.realtime!.commands);
    expect(served.filter((type) => !(type in samples)), 'live command types without a sample').toEqual([]);
    const admin = await LiveClient.open(t, { token: t.token });
    admin.send({ cmds: [{ type: 'ALARM_DATA', cmdId: 1, query: { pageLink: { page: 0, pageSize: 10 } } }] });
    await admin.answer(1);
    const ws = await LiveClient.open(t, { token: customer.token });
    for (const [i, type] of served.entries()) ws.send({ cmds: [{ type, cmdId: i + 1, ...samples[type]!.body }] });
    await ws.roundTrip();

    await sendTemperature(t, 95);
    const raised = await admin.next<AlarmDataUpdate>((m) => m.cmdId === 1 && Array.isArray(m.update));
    await t.api.ok(alarmRoutes.ack, { params: { id: raised.update![0]!.id } });
    await admin.next((m) => (m as unknown as AlarmDataUpdate).update?.[0]?.status === 'ACTIVE_ACK');
    await ws.roundTrip();
    const received = ws.pending();
    expect(received.length).toBeGreaterThanOrEqual(served.length - 2);
    // A refusal repeats the id the command named, and says it does not exist; an answer names nothing of it.
    expect(received.filter((m) => m.errorCode !== 0 && m.errorCode !== WsErrorCode.NOT_FOUND && m.errorCode !== WsErrorCode.UNAUTHORIZED)).toEqual([]);
    expect(received.filter((m) => m.errorCode === 0 && leaks(JSON.stringify(m), secrets).length)).toEqual([]);
  });
});
