/**
 * Organization scoping: a customer sees the devices of their organizations and those below, and
 * nothing of others — lists, details, telemetry, commands, events, exports and websocket
 * subscriptions; another organization's device named by id answers 404, as if it did not exist.
 */
import { describe, expect, it } from 'vitest';
import { alarmRoutes } from '../../server/contract/alarm.ts';
import { cloudLinkRoutes } from '../../server/contract/cloud-link.ts';
import { commandRoutes } from '../../server/contract/command.ts';
import { deviceRoutes, type Device } from '../../server/contract/device.ts';
import { eventRecordRoutes } from '../../server/contract/event-record.ts';
import { modbusRoutes } from '../../server/contract/modbus.ts';
import { organizationRoutes, type OrganizationTreeNode } from '../../server/contract/organization.ts';
import { productRoutes } from '../../server/contract/product.ts';
import type { CommandsUpdate } from '../../server/contract/realtime.ts';
import { thingModelRoutes } from '../../server/contract/thing-model.ts';
import type { AlarmCountUpdate, AlarmDataUpdate, EntityCountUpdate, EntityDataUpdate, ErrorUpdate, TelemetryUpdate } from '../../server/contract/realtime.ts';
import { WS_SCOPE_CHANGED, WsErrorCode } from '../../server/contract/realtime.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { userAdminRoutes } from '../../server/contract/user-admin.ts';
import { workbenchRoutes } from '../../server/contract/workbench.ts';
import { LiveClient, makeLiveApp, type LiveTestApp } from '../helpers/live.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';
import { createRoleUser } from '../helpers/roles.ts';
import { createScene, makeBoilerApp, overheatScene, sendTemperature } from '../helpers/scenes.ts';

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

/** Stores `values` for `device` over the HTTP device API and waits until the administrator reads them back. */
async function report(t: LiveTestApp, deviceId: string, values: Record<string, number>): Promise<void> {
  const token = await tokenOf(t.api, deviceId);
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/${token}/telemetry`, payload: values });
  expect(res.statusCode, res.body).toBe(200);
  const [key, value] = Object.entries(values)[0]!;
  await eventually(
    () => t.api.ok(telemetryRoutes.timeseries, { params: { id: deviceId }, query: { keys: key, startTs: 0, endTs: Date.now() + 1000 } }),
    (v) => (v as Record<string, { value: unknown }[]>)[key]?.some((p) => Number(p.value) === value) === true,
  );
}

/** Moves `device` to `organizationId` as the administrator. */
function moveDevice(t: LiveTestApp, device: Device, organizationId: string) {
  return t.api.ok(deviceRoutes.update, {
    body: { id: device.id, name: device.name, deviceType: device.deviceType, deviceProfileId: device.deviceProfileId, organizationId },
  });
}

describe('live data of another organization over /api/ws', () => {
  it('leaves another organization’s device out of an ENTITY_DATA entityList, and out of every later update', async () => {
    const { t, mine, theirs, customer } = await scopedGateway();
    const ws = await LiveClient.open(t, { token: customer.token });
    ws.send({
      cmds: [
        {
          type: 'ENTITY_DATA',
          cmdId: 1,
          query: {
            entityFilter: { type: 'entityList', entityType: 'DEVICE', entityList: [mine.id, theirs.id] },
            pageLink: { page: 0, pageSize: 10 },
            latestValues: [{ type: 'TIME_SERIES', key: 'temperature' }],
          },
        },
      ],
    });
    const first = await ws.answer<EntityDataUpdate>(1);
    expect(first.data?.data.map((e) => e.entityId.id)).toEqual([mine.id]);
    await report(t, theirs.id, { temperature: 66 });
    await report(t, mine.id, { temperature: 21 });
    await ws.next((m) => m.cmdId === 1 && JSON.stringify(m).includes(mine.id));
    await ws.roundTrip();
    expect(JSON.stringify(ws.pending())).not.toContain(theirs.id);
  });

  it('pushes no alarm of another organization’s device on ALARM_DATA or ALARM_COUNT, raised or acknowledged', async () => {
    const t = await makeBoilerApp();
    const other = await t.api.createOrganization({ name: 'Other' });
    await moveDevice(t, t.device, other.id);
    const plant = await t.api.createOrganization({ name: 'Plant' });
    const customer = await createRoleUser(t.api, 'CUSTOMER_USER', [plant.id]);
    await createScene(t, overheatScene(t.product.id));
    const admin = await LiveClient.open(t, { token: t.token });
    const ws = await LiveClient.open(t, { token: customer.token });
    const alarms = { type: 'ALARM_DATA', query: { pageLink: { page: 0, pageSize: 10 } } };
    admin.send({ cmds: [{ ...alarms, cmdId: 1 }] });
    ws.send({ cmds: [{ ...alarms, cmdId: 1 }, { type: 'ALARM_COUNT', cmdId: 2, query: {} }] });
    await admin.answer(1);
    expect(await ws.answer<AlarmDataUpdate>(1)).toMatchObject({ errorCode: 0, data: { data: [], totalElements: 0 } });
    expect(await ws.answer<AlarmCountUpdate>(2)).toMatchObject({ errorCode: 0, count: 0 });

    await sendTemperature(t, 95);
    const raised = await admin.answer<AlarmDataUpdate>(1);
    await t.api.ok(alarmRoutes.ack, { params: { id: raised.update![0]!.id } });
    await admin.next((m) => (m as unknown as AlarmDataUpdate).update?.[0]?.status === 'ACTIVE_ACK');
    await ws.roundTrip();
    expect(ws.pending()).toEqual([]);
  });

  it('refuses EDGE_STATE to a customer, as GET /api/yt/edge/state does', async () => {
    const { t, customer } = await scopedGateway();
    expect((await customer.api.call(cloudLinkRoutes.state)).statusCode).toBe(403);
    const ws = await LiveClient.open(t, { token: customer.token });
    ws.send({ cmds: [{ type: 'EDGE_STATE', cmdId: 1 }] });
    expect(await ws.answer<ErrorUpdate>(1)).toMatchObject({ errorCode: WsErrorCode.UNAUTHORIZED, data: null });
  });
});

describe('open subscriptions after a change of scope', () => {
  it('sends nothing more of a device the moment it moves to another organization', async () => {
    const { t, line, other, mine, customer } = await scopedGateway();
    const second = await t.api.createDevice({ organizationId: line.id });
    const ws = await LiveClient.open(t, { token: customer.token });
    ws.send({
      cmds: [
        { type: 'TIMESERIES', cmdId: 1, entityType: 'DEVICE', entityId: mine.id, scope: 'LATEST_TELEMETRY' },
        { type: 'TIMESERIES', cmdId: 2, entityType: 'DEVICE', entityId: second.id, scope: 'LATEST_TELEMETRY' },
      ],
    });
    await ws.answer(1);
    await ws.answer(2);
    await moveDevice(t, mine, other.id);
    await report(t, mine.id, { temperature: 77 });
    await report(t, second.id, { temperature: 5 });
    await ws.answer(2);
    await ws.roundTrip();
    expect(ws.pending().filter((m) => m.cmdId === 1)).toEqual([]);
  });

  it('closes the socket of a customer who lost their organizations, at once, with WS_SCOPE_CHANGED', async () => {
    const { t, mine, customer } = await scopedGateway();
    const ws = await LiveClient.open(t, { token: customer.token });
    ws.send({ cmds: [{ type: 'TIMESERIES', cmdId: 1, entityType: 'DEVICE', entityId: mine.id, scope: 'LATEST_TELEMETRY' }] });
    await ws.answer(1);
    await t.api.ok(userAdminRoutes.update, {
      body: { id: customer.user.id, username: customer.user.username, realName: 'c', role: 'CUSTOMER_USER', organizationIds: [], enabled: true },
    });
    expect(await ws.closed).toMatchObject({ code: WS_SCOPE_CHANGED });
  });

  it('closes the socket of a customer whose organization tree lost a branch, and keeps an unaffected one open', async () => {
    const { t, line, other, customer } = await scopedGateway();
    const bystander = await createRoleUser(t.api, 'CUSTOMER_USER', [other.id]);
    const ws = await LiveClient.open(t, { token: customer.token });
    const calm = await LiveClient.open(t, { token: bystander.token });
    await t.api.ok(organizationRoutes.update, { body: { id: line.id, name: 'Line', parentId: null } });
    expect(await ws.closed).toMatchObject({ code: WS_SCOPE_CHANGED });
    await calm.roundTrip();
    expect(calm.socket.readyState).toBe(calm.socket.OPEN);
  });
});
