/**
 * The alarm module's live command types (ALARM_DATA, ALARM_COUNT) through a real /api/ws socket:
 * a scene raises an alarm when a boiler reports over 80 over real MQTT, the alarm is acknowledged
 * over HTTP, and an ended subscription hears nothing more.
 */
import { describe, expect, it } from 'vitest';
import { alarmRoutes } from '../../server/contract/alarm.ts';
import type { AlarmCountUpdate, AlarmDataUpdate } from '../../server/contract/realtime.ts';
import { expectSilenced, type LiveCmd } from '../helpers/live.ts';
import { sendTemperature, watchedBoiler } from '../helpers/scenes.ts';

function openAlarms(cmdId: number): LiveCmd {
  return { type: 'ALARM_DATA', cmdId, query: { pageLink: { page: 0, pageSize: 10, statusList: ['ACTIVE'] } } };
}

function unacknowledged(cmdId: number): LiveCmd {
  return { type: 'ALARM_COUNT', cmdId, query: { statusList: ['ACTIVE_UNACK'] } };
}

describe('ALARM_DATA over /api/ws', () => {
  it('answers a page of alarms, pushes the alarm a scene raises, and stops after ALARM_DATA_UNSUBSCRIBE', async () => {
    const { t, ws } = await watchedBoiler();
    ws.send({ cmds: [openAlarms(1)] });
    expect(await ws.answer<AlarmDataUpdate>(1)).toMatchObject({
      cmdId: 1,
      errorCode: 0,
      cmdUpdateType: 'ALARM_DATA',
      data: { data: [], totalElements: 0, hasNext: false },
      update: null,
    });

    await sendTemperature(t, 95);
    const raised = await ws.answer<AlarmDataUpdate>(1);
    expect(raised).toMatchObject({ cmdUpdateType: 'ALARM_DATA', data: null });
    expect(raised.update).toEqual([
      expect.objectContaining({ type: 'overheat', severity: 'CRITICAL', status: 'ACTIVE_UNACK', entityId: { entityType: 'DEVICE', id: t.device.id } }),
    ]);
    const alarmId = raised.update![0]!.id;

    const witnessed = await expectSilenced(ws, {
      cmdId: 1,
      end: { type: 'ALARM_DATA_UNSUBSCRIBE', cmdId: 1 },
      witness: openAlarms(2),
      change: () => t.api.ok(alarmRoutes.ack, { params: { id: alarmId } }),
      heard: (m) => (m as unknown as AlarmDataUpdate).update?.[0]?.status === 'ACTIVE_ACK',
    });
    expect((witnessed as unknown as AlarmDataUpdate).update?.[0]?.id).toBe(alarmId);
  });
});

describe('ALARM_COUNT over /api/ws', () => {
  it('answers the count, counts again when a scene raises an alarm, and stops after ALARM_COUNT_UNSUBSCRIBE', async () => {
    const { t, ws } = await watchedBoiler();
    ws.send({ cmds: [unacknowledged(1)] });
    expect(await ws.answer<AlarmCountUpdate>(1)).toEqual({ cmdId: 1, errorCode: 0, errorMsg: null, count: 0, cmdUpdateType: 'ALARM_COUNT_DATA' });

    await sendTemperature(t, 95);
    expect(await ws.answer<AlarmCountUpdate>(1)).toMatchObject({ count: 1, cmdUpdateType: 'ALARM_COUNT_DATA' });
    const [alarm] = (await t.api.ok(alarmRoutes.list, { query: { pageSize: 10 } })).items;

    // Acknowledged, the alarm leaves the count.
    await expectSilenced(ws, {
      cmdId: 1,
      end: { type: 'ALARM_COUNT_UNSUBSCRIBE', cmdId: 1 },
      witness: unacknowledged(2),
      change: () => t.api.ok(alarmRoutes.ack, { params: { id: alarm!.id } }),
      heard: (m) => m.count === 0,
    });
  });
});
