/**
 * The notification module's live command types through a real /api/ws socket: NOTIFICATIONS and
 * NOTIFICATIONS_COUNT follow the notifications a scene's alarm sends (a boiler over 80 over real
 * MQTT) and hear nothing more once ended; MARK_NOTIFICATIONS_AS_READ and
 * MARK_ALL_NOTIFICATIONS_AS_READ mark the user's own, which the count and the HTTP list show.
 */
import { describe, expect, it } from 'vitest';
import { notificationRoutes } from '../../server/contract/notification.ts';
import type { NotificationsCountUpdate, NotificationsUpdate } from '../../server/contract/realtime.ts';
import { expectSilenced, type LiveCmd, type LiveClient } from '../helpers/live.ts';
import { sendTemperature, watchedBoiler, type BoilerApp } from '../helpers/scenes.ts';

/** The boiler goes over 80 once more: one more notification. */
async function overheatAgain(t: BoilerApp): Promise<void> {
  await sendTemperature(t, 50);
  await sendTemperature(t, 96);
}

function unreadCount(cmdId: number): LiveCmd {
  return { type: 'NOTIFICATIONS_COUNT', cmdId };
}

function unreadList(cmdId: number): LiveCmd {
  return { type: 'NOTIFICATIONS', cmdId, limit: 5 };
}

/** Takes the NOTIFICATIONS_COUNT subscription `cmdId`'s answers in order until one says `n`. */
async function countReaches(ws: LiveClient, cmdId: number, n: number): Promise<void> {
  while ((await ws.answer<NotificationsCountUpdate>(cmdId)).totalUnreadCount !== n);
}

/** Two unread notifications, and NOTIFICATIONS_COUNT under cmdId 1 having counted them. */
async function twoUnread(): Promise<{ t: BoilerApp; ws: LiveClient }> {
  const { t, ws } = await watchedBoiler();
  ws.send({ cmds: [unreadCount(1)] });
  await countReaches(ws, 1, 0);
  await sendTemperature(t, 95);
  await overheatAgain(t);
  await countReaches(ws, 1, 2);
  return { t, ws };
}

/** A mark command has no answer of its own: whatever came for it by a round trip later is no refusal. */
async function expectNoRefusal(ws: LiveClient, cmdId: number): Promise<void> {
  await ws.roundTrip();
  expect(ws.pending().filter((m) => m.cmdId === cmdId && m.errorCode !== 0)).toEqual([]);
}

async function unreadOverHttp(t: BoilerApp): Promise<string[]> {
  return (await t.api.ok(notificationRoutes.list, { query: { unreadOnly: true } })).items.map((n) => n.id);
}

describe('NOTIFICATIONS over /api/ws', () => {
  it('answers the unread list, pushes a notification an alarm sends, and stops after NOTIFICATIONS_UNSUBSCRIBE', async () => {
    const { t, ws } = await watchedBoiler();
    ws.send({ cmds: [unreadList(1)] });
    expect(await ws.answer<NotificationsUpdate>(1)).toEqual({
      cmdId: 1,
      errorCode: 0,
      errorMsg: null,
      totalUnreadCount: 0,
      notifications: [],
      update: null,
      cmdUpdateType: 'NOTIFICATIONS',
    });

    await sendTemperature(t, 95);
    const pushed = await ws.answer<NotificationsUpdate>(1);
    expect(pushed).toMatchObject({ cmdUpdateType: 'NOTIFICATIONS', totalUnreadCount: 1, notifications: null, update: { type: 'ALARM', subject: 'overheat', status: 'SENT' } });

    const witnessed = await expectSilenced(ws, {
      cmdId: 1,
      end: { type: 'NOTIFICATIONS_UNSUBSCRIBE', cmdId: 1 },
      witness: unreadList(2),
      change: () => overheatAgain(t),
      heard: (m) => m.update !== null && m.totalUnreadCount === 2,
    });
    expect((witnessed as unknown as NotificationsUpdate).update?.id).not.toBe(pushed.update?.id);
  });
});

describe('NOTIFICATIONS_COUNT over /api/ws', () => {
  it('answers the unread count, counts again when an alarm notifies, and stops after NOTIFICATIONS_UNSUBSCRIBE', async () => {
    const { t, ws } = await watchedBoiler();
    ws.send({ cmds: [unreadCount(1)] });
    expect(await ws.answer<NotificationsCountUpdate>(1)).toEqual({ cmdId: 1, errorCode: 0, errorMsg: null, totalUnreadCount: 0, cmdUpdateType: 'NOTIFICATIONS_COUNT' });

    await sendTemperature(t, 95);
    expect(await ws.answer<NotificationsCountUpdate>(1)).toMatchObject({ totalUnreadCount: 1, cmdUpdateType: 'NOTIFICATIONS_COUNT' });

    // Read over HTTP, the notification leaves the count.
    await expectSilenced(ws, {
      cmdId: 1,
      end: { type: 'NOTIFICATIONS_UNSUBSCRIBE', cmdId: 1 },
      witness: unreadCount(2),
      change: () => t.api.ok(notificationRoutes.readAll),
      heard: (m) => m.totalUnreadCount === 0,
    });
  });
});

describe('marking notifications read over /api/ws', () => {
  it('marks the notifications named by MARK_NOTIFICATIONS_AS_READ read, and only those: the count drops by one', async () => {
    const { t, ws } = await twoUnread();
    const [newest, older] = await unreadOverHttp(t);

    ws.send({ cmds: [{ type: 'MARK_NOTIFICATIONS_AS_READ', cmdId: 2, notifications: [older!] }] });
    await countReaches(ws, 1, 1);
    expect(await unreadOverHttp(t)).toEqual([newest]);
    await expectNoRefusal(ws, 2);
  });

  it('marks every notification of the user read with MARK_ALL_NOTIFICATIONS_AS_READ: the count drops to 0', async () => {
    const { t, ws } = await twoUnread();

    ws.send({ cmds: [{ type: 'MARK_ALL_NOTIFICATIONS_AS_READ', cmdId: 2 }] });
    await countReaches(ws, 1, 0);
    expect(await unreadOverHttp(t)).toEqual([]);
    expect((await t.api.ok(notificationRoutes.list)).items.map((n) => n.status)).toEqual(['READ', 'READ']);
    await expectNoRefusal(ws, 2);
  });
});
