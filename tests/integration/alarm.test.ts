import { describe, expect, it } from 'vitest';
import { alarmRoutes, type Alarm } from '../../server/contract/alarm.ts';
import { notificationRoutes } from '../../server/contract/notification.ts';
import { organizationRoutes } from '../../server/contract/organization.ts';
import { workbenchRoutes } from '../../server/contract/workbench.ts';
import { expectError } from '../helpers/error-body.ts';
import { LiveClient } from '../helpers/live.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';
import { alarmsOf, createScene, makeBoilerApp, overheatScene, sendTemperature, type BoilerApp } from '../helpers/scenes.ts';

/** Two boilers over 80: two open alarms of one scene. */
async function twoAlarms(t: BoilerApp): Promise<Alarm[]> {
  const org = await t.api.createOrganization({ name: 'Plant' });
  const child = await t.api.createOrganization({ name: 'Hall', parentId: org.id });
  const second = await t.models.createDevice({ deviceProfileId: t.product.id, organizationId: child.id });
  await createScene(t, overheatScene(t.product.id));
  const mqtt = await connectDevice(t.app, { username: await tokenOf(t.api, second.id) });
  await sendTemperature(t, 90);
  await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 91 }), { qos: 1 });
  await mqtt.endAsync();
  return eventually(() => alarmsOf(t), (list) => list.length === 2);
}

describe('alarms', () => {
  it('acknowledges and clears, singly and in batches, through the four statuses', async () => {
    const t = await makeBoilerApp();
    const [a, b] = await twoAlarms(t);
    expect((await t.api.ok(alarmRoutes.ack, { params: { id: a!.id } })).status).toBe('ACTIVE_ACK');
    const cleared = await t.api.ok(alarmRoutes.clear, { params: { id: a!.id } });
    expect(cleared).toMatchObject({ status: 'CLEARED_ACK', ackTs: expect.any(Number), clearTs: expect.any(Number) });
    expect((await t.api.ok(alarmRoutes.clear, { params: { id: b!.id } })).status).toBe('CLEARED_UNACK');
    // Already acknowledged ones are left as they are.
    expect(await t.api.ok(alarmRoutes.batchAck, { body: { alarmIds: [a!.id, b!.id] } })).toEqual({ updated: 1 });
    expect((await alarmsOf(t)).map((x) => x.status)).toEqual(['CLEARED_ACK', 'CLEARED_ACK']);
    expect((await alarmsOf(t, { status: 'ACTIVE_UNACK' })).length).toBe(0);
    expect((await alarmsOf(t, { deviceId: t.device.id })).map((x) => x.deviceId)).toEqual([t.device.id]);
  });

  it('batch clear refuses the whole batch when one id is unknown; single calls answer 404', async () => {
    const t = await makeBoilerApp();
    const [a] = await twoAlarms(t);
    const body = expectError(await t.api.call(alarmRoutes.batchClear, { body: { alarmIds: [a!.id, 'nope'] } }), 404, 32, 'error.notFound');
    expect(body.details).toEqual([expect.objectContaining({ field: 'body.alarmIds.1', key: 'error.notFound' })]);
    expect((await t.api.ok(alarmRoutes.get, { params: { id: a!.id } })).status).toBe('ACTIVE_UNACK');
    expectError(await t.api.call(alarmRoutes.ack, { params: { id: 'nope' } }), 404, 32, 'error.notFound');
    expectError(await t.api.call(alarmRoutes.clear, { params: { id: 'nope' } }), 404, 32, 'error.notFound');
    expectError(await t.api.call(alarmRoutes.get, { params: { id: 'nope' } }), 404, 32, 'error.notFound');
    expectError(await t.api.call(alarmRoutes.list, { query: { startTime: 5000, endTime: 4000 } }), 400, 31, 'error.alarm.rangeInvalid');
    expectError(await t.api.call(alarmRoutes.list, { query: { status: 'OPEN' } }), 400, 31, 'error.validation');
  });

  it('counts alarms of an organization and its descendants by status and severity', async () => {
    const t = await makeBoilerApp();
    await twoAlarms(t);
    const orgs = await t.api.ok(organizationRoutes.list, { query: { pageSize: 100 } });
    const plant = orgs.items.find((o) => o.name === 'Plant')!;
    const profile = await t.api.ok(alarmRoutes.profile, { params: { organizationId: plant.id } });
    expect(profile).toMatchObject({ total: 1, active: 1, unacknowledged: 1, byStatus: { ACTIVE_UNACK: 1, ACTIVE_ACK: 0 }, bySeverity: { CRITICAL: 1, MAJOR: 0 } });
    expectError(await t.api.call(alarmRoutes.profile, { params: { organizationId: 'nope' } }), 404, 32, 'error.notFound');
    const workbench = await t.api.ok(workbenchRoutes.summary);
    expect(workbench).toMatchObject({ alarmsAvailable: true, alarms: { total: 2, unacknowledged: 2 } });
  });

  it('pushes ALARM_DATA and ALARM_COUNT updates on a websocket when a threshold is crossed and when an alarm is acknowledged', async () => {
    const t = await makeBoilerApp();
    await createScene(t, overheatScene(t.product.id));
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({
      cmds: [
        { type: 'ALARM_DATA', cmdId: 1, query: { pageLink: { page: 0, pageSize: 10, statusList: ['ACTIVE', 'UNACK'] } } },
        { type: 'ALARM_COUNT', cmdId: 2, query: { statusList: ['ACTIVE_UNACK'] } },
        { type: 'NOTIFICATIONS_COUNT', cmdId: 3 },
      ],
    });
    expect(await ws.answer(1)).toMatchObject({ cmdUpdateType: 'ALARM_DATA', errorCode: 0, data: { data: [], totalElements: 0, hasNext: false }, update: null });
    expect(await ws.answer(2)).toMatchObject({ cmdUpdateType: 'ALARM_COUNT_DATA', count: 0 });
    expect(await ws.answer(3)).toMatchObject({ cmdUpdateType: 'NOTIFICATIONS_COUNT', totalUnreadCount: 0 });
    await sendTemperature(t, 95);
    const update = await ws.answer<{ update: (Alarm & { entityId: unknown })[] }>(1);
    expect(update.update).toEqual([expect.objectContaining({ type: 'overheat', status: 'ACTIVE_UNACK', entityId: { entityType: 'DEVICE', id: t.device.id }, details: expect.objectContaining({ value: 95 }) })]);
    expect(await ws.answer(2)).toMatchObject({ count: 1 });
    expect(await ws.answer(3)).toMatchObject({ totalUnreadCount: 1 });
    await t.api.ok(alarmRoutes.ack, { params: { id: update.update[0]!.id } });
    // It left the filter: subscribers hear of it once more, with its new status.
    expect((await ws.answer<{ update: Alarm[] }>(1)).update[0]?.status).toBe('ACTIVE_ACK');
    expect(await ws.answer(2)).toMatchObject({ count: 0 });
  });

  it('lists notifications per user and marks them read over HTTP and the websocket', async () => {
    const t = await makeBoilerApp();
    await createScene(t, overheatScene(t.product.id));
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ cmds: [{ type: 'NOTIFICATIONS', cmdId: 4, limit: 5 }] });
    expect(await ws.answer(4)).toMatchObject({ cmdUpdateType: 'NOTIFICATIONS', totalUnreadCount: 0, notifications: [] });
    await sendTemperature(t, 95);
    const created = await ws.answer<{ update: { id: string }; totalUnreadCount: number }>(4);
    expect(created).toMatchObject({ totalUnreadCount: 1, update: { type: 'ALARM', subject: 'overheat', status: 'SENT' } });
    ws.send({ cmds: [{ type: 'MARK_NOTIFICATIONS_AS_READ', cmdId: 5, notifications: [created.update.id] }] });
    expect(await ws.answer(4)).toMatchObject({ totalUnreadCount: 0, notifications: [] });
    await sendTemperature(t, 50);
    await sendTemperature(t, 96);
    await ws.answer(4);
    expect((await t.api.ok(notificationRoutes.list, { query: { unreadOnly: true } })).total).toBe(1);
    expect(await t.api.ok(notificationRoutes.read, { body: { ids: ['someone-elses'] } })).toEqual({ updated: 0, unreadCount: 1 });
    expect(await t.api.ok(notificationRoutes.readAll)).toEqual({ updated: 1, unreadCount: 0 });
    expect((await t.api.ok(notificationRoutes.list)).items.map((n) => n.status)).toEqual(['READ', 'READ']);
  });
});
