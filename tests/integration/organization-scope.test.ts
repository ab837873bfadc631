/**
 * Organization scoping: a customer sees the devices of their organizations and those below, and
 * nothing of others — lists, details, telemetry, commands, events, exports and websocket
 * subscriptions; another organization's device named by id answers 404, as if it did not exist.
 */
import { describe, expect, it } from 'vitest';
import { commandRoutes } from '../../server/contract/command.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { eventRecordRoutes } from '../../server/contract/event-record.ts';
import { modbusRoutes } from '../../server/contract/modbus.ts';
import { organizationRoutes, type OrganizationTreeNode } from '../../server/contract/organization.ts';
import { productRoutes } from '../../server/contract/product.ts';
import type { CommandsUpdate } from '../../server/contract/realtime.ts';
import { thingModelRoutes } from '../../server/contract/thing-model.ts';
import type { EntityCountUpdate, ErrorUpdate, TelemetryUpdate } from '../../server/contract/realtime.ts';
import { WsErrorCode } from '../../server/contract/realtime.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { userAdminRoutes } from '../../server/contract/user-admin.ts';
import { workbenchRoutes } from '../../server/contract/workbench.ts';
import { LiveClient, makeLiveApp } from '../helpers/live.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';
import { createRoleUser } from '../helpers/roles.ts';

async function scopedGateway() {
  const t = await makeLiveApp({ listen: true });
  const plant = await t.api.createOrganization({ name: 'Plant' });
  const line = await t.api.createOrganization({ name: 'Line', parentId: plant.id });
  const other = await t.api.createOrganization({ name: 'Other' });
  const mine = await t.api.createDevice({ organizationId: line.id });
  const theirs = await t.api.createDevice({ organizationId: other.id });
  const loose = await t.api.createDevice();
  const customer = await createRoleUser(t.api, 'CUSTOMER_USER', [plant.id]);
  return { t, plant, line, other, mine, theirs, loose, customer };
}

describe('organization scoping of a customer', () => {
  it('lists only the devices of their organization and the organizations below it', async () => {
    const { t, mine, customer } = await scopedGateway();
    const page = await customer.api.ok(deviceRoutes.list, { query: { pageSize: 100 } });
    expect(page.items.map((d) => d.id)).toEqual([mine.id]);
    expect(page.total).toBe(1);
    expect((await t.api.ok(deviceRoutes.list, { query: { pageSize: 100 } })).total).toBe(3);
  });

  it('counts only their devices, and the products those use, on the workbench', async () => {
    const { t, customer } = await scopedGateway();
    expect((await customer.api.ok(workbenchRoutes.summary)).devices.total).toBe(1);
    expect((await customer.api.ok(workbenchRoutes.summary)).products).toBe(1);
    expect((await t.api.ok(workbenchRoutes.summary)).devices.total).toBe(3);
    expect((await t.api.ok(workbenchRoutes.summary)).products).toBe(3);
  });

  it('answers 404 for another organization’s device, and for one in no organization, on every device call', async () => {
    const { mine, theirs, loose, customer } = await scopedGateway();
    expect((await customer.api.call(deviceRoutes.get, { params: { id: mine.id } })).statusCode).toBe(200);
    for (const id of [theirs.id, loose.id]) {
      for (const route of [deviceRoutes.get, telemetryRoutes.timeseries, telemetryRoutes.timeseriesKeys, eventRecordRoutes.list]) {
        const res = await customer.api.call(route, { params: { id } });
        expect(res.statusCode, `${route.url}`).toBe(404);
        expect(res.json()).toMatchObject({ code: 32, key: 'error.notFound' });
      }
    }
  });

  it('reads the telemetry history of their own device (the history export) but not another’s', async () => {
    const { t, mine, theirs, customer } = await scopedGateway();
    for (const device of [mine, theirs]) {
      const mqtt = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
      await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 20 }), { qos: 1 });
    }
    const values = await eventually(
      () => customer.api.ok(telemetryRoutes.timeseries, { params: { id: mine.id }, query: { keys: 'temperature', startTs: 0, endTs: Date.now() + 1000 } }),
      (v) => (v as Record<string, { value: unknown }[]>).temperature?.length === 1,
    );
    expect((values as Record<string, { value: unknown }[]>).temperature?.[0]?.value).toBe(20);
    const theirsValues = await customer.api.call(telemetryRoutes.timeseries, { params: { id: theirs.id }, query: { keys: 'temperature', startTs: 0, endTs: Date.now() } });
    expect(theirsValues.statusCode).toBe(404);
  });

  it('refuses a device edit with 403 code 20 and changes nothing', async () => {
    const { t, mine, customer } = await scopedGateway();
    const res = await customer.api.call(deviceRoutes.update, {
      body: { id: mine.id, name: 'renamed', deviceType: mine.deviceType, deviceProfileId: mine.deviceProfileId },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 20, key: 'error.permissionDenied' });
    expect((await t.api.ok(deviceRoutes.get, { params: { id: mine.id } })).name).toBe(mine.name);
    expect((await customer.api.call(commandRoutes.list, { params: { id: mine.id } })).statusCode).toBe(403);
  });

  it('subscribes over the websocket only to devices within scope, and counts only those', async () => {
    const { t, mine, theirs, customer } = await scopedGateway();
    const ws = await LiveClient.open(t, { token: customer.token });
    ws.send({
      cmds: [
        { type: 'TIMESERIES', cmdId: 1, entityType: 'DEVICE', entityId: mine.id, scope: 'LATEST_TELEMETRY' },
        { type: 'TIMESERIES', cmdId: 2, entityType: 'DEVICE', entityId: theirs.id, scope: 'LATEST_TELEMETRY' },
        { type: 'ENTITY_COUNT', cmdId: 3, query: { entityFilter: { type: 'entityType', entityType: 'DEVICE' } } },
      ],
    });
    expect(await ws.answer<TelemetryUpdate>(1)).toMatchObject({ errorCode: 0 });
    expect(await ws.answer<ErrorUpdate>(2)).toMatchObject({ errorCode: WsErrorCode.NOT_FOUND });
    expect(await ws.answer<EntityCountUpdate>(3)).toMatchObject({ errorCode: 0, count: 1 });
  });

  it('keeps a platform administrator’s socket open but refuses its device subscriptions', async () => {
    const { t, mine } = await scopedGateway();
    const platform = await createRoleUser(t.api, 'PLATFORM_ADMIN');
    const ws = await LiveClient.open(t, { token: platform.token });
    ws.send({ cmds: [{ type: 'TIMESERIES', cmdId: 1, entityType: 'DEVICE', entityId: mine.id, scope: 'LATEST_TELEMETRY' }] });
    expect(await ws.answer<ErrorUpdate>(1)).toMatchObject({ errorCode: WsErrorCode.UNAUTHORIZED });
    expect(ws.socket.readyState).toBe(ws.socket.OPEN);
  });

  it('sees the devices of an organization added to their memberships', async () => {
    const { t, other, customer, plant } = await scopedGateway();
    await t.api.ok(userAdminRoutes.update, {
      body: { id: customer.user.id, username: customer.user.username, realName: 'c', role: 'CUSTOMER_USER', organizationIds: [plant.id, other.id], enabled: true },
    });
    expect((await customer.api.ok(deviceRoutes.list)).total).toBe(2);
  });

  it('refuses the command records of their own device over the websocket, as the HTTP list does, while a tenant administrator follows them', async () => {
    const { t, mine, theirs, customer } = await scopedGateway();
    const ws = await LiveClient.open(t, { token: customer.token });
    ws.send({ cmds: [{ type: 'COMMANDS', cmdId: 1, entityType: 'DEVICE', entityId: mine.id }] });
    expect(await ws.answer<ErrorUpdate>(1)).toMatchObject({ errorCode: WsErrorCode.UNAUTHORIZED });
    expect(ws.socket.readyState).toBe(ws.socket.OPEN);

    const tenant = await createRoleUser(t.api, 'TENANT_ADMIN');
    const tenantWs = await LiveClient.open(t, { token: tenant.token });
    tenantWs.send({ cmds: [{ type: 'COMMANDS', cmdId: 1, entityType: 'DEVICE', entityId: theirs.id }] });
    expect(await tenantWs.answer<CommandsUpdate>(1)).toMatchObject({ errorCode: 0, cmdUpdateType: 'COMMANDS', data: [] });
  });
});

/** Every node of a tree, depth first, as `name` or `parent/child`. */
function treePaths(nodes: readonly OrganizationTreeNode[], prefix = ''): string[] {
  return nodes.flatMap((n) => [`${prefix}${n.name}`, ...treePaths(n.children, `${prefix}${n.name}/`)]);
}

describe('organizations and products a customer sees', () => {
  it('shows the organization tree from their own organization down, without the organizations above or beside it', async () => {
    const { t, customer } = await scopedGateway();
    const below = await createRoleUser(t.api, 'CUSTOMER_USER', [(await t.api.ok(organizationRoutes.list, { query: { name: 'Line' } })).items[0]!.id]);
    expect(treePaths(await customer.api.ok(organizationRoutes.tree))).toEqual(['Plant', 'Plant/Line']);
    // A member of the lower organization only: it is a root of what they see; Plant's name stays hidden.
    expect(treePaths(await below.api.ok(organizationRoutes.tree))).toEqual(['Line']);
    expect(treePaths(await t.api.ok(organizationRoutes.tree)).sort()).toEqual(['Other', 'Plant', 'Plant/Line']);
  });

  it('lists only their organizations, and answers 404 for another one by id', async () => {
    const { line, other, customer } = await scopedGateway();
    const page = await customer.api.ok(organizationRoutes.list, { query: { pageSize: 100 } });
    expect(page.items.map((o) => o.name).sort()).toEqual(['Line', 'Plant']);
    expect(page.total).toBe(2);
    expect((await customer.api.ok(organizationRoutes.list, { query: { name: 'Other' } })).total).toBe(0);
    expect((await customer.api.ok(organizationRoutes.get, { params: { id: line.id } })).name).toBe('Line');
    const res = await customer.api.call(organizationRoutes.get, { params: { id: other.id } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 32, key: 'error.notFound' });
  });

  it('lists only the products their devices use, and answers 404 for the others and their thing models', async () => {
    const { t, mine, theirs, loose, customer } = await scopedGateway();
    const unused = await t.api.createProduct();
    const page = await customer.api.ok(productRoutes.list, { query: { pageSize: 100 } });
    expect(page.items.map((p) => p.id)).toEqual([mine.deviceProfileId]);
    expect(page.total).toBe(1);
    expect((await customer.api.ok(productRoutes.options)).map((p) => p.id)).toEqual([mine.deviceProfileId]);
    expect((await customer.api.ok(productRoutes.get, { params: { id: mine.deviceProfileId } })).id).toBe(mine.deviceProfileId);
    expect((await customer.api.call(thingModelRoutes.list, { params: { deviceProfileId: mine.deviceProfileId } })).statusCode).toBe(200);
    for (const id of [theirs.deviceProfileId, loose.deviceProfileId, unused.id]) {
      for (const call of [
        customer.api.call(productRoutes.get, { params: { id } }),
        customer.api.call(thingModelRoutes.list, { params: { deviceProfileId: id } }),
        customer.api.call(thingModelRoutes.status, { params: { deviceProfileId: id } }),
        customer.api.call(thingModelRoutes.exportTsl, { params: { deviceProfileId: id } }),
        customer.api.call(modbusRoutes.plan, { params: { id } }),
      ]) {
        const res = await call;
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json()).toMatchObject({ code: 32, key: 'error.notFound' });
      }
    }
    expect((await t.api.ok(productRoutes.list, { query: { pageSize: 100 } })).total).toBe(4);
  });
});
