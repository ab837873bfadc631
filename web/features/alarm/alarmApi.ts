/** Alarm and notification calls over the contract (server/contract/alarm.ts, notification.ts). */
import { alarmRoutes, type Alarm, type AlarmBatchResult, type AlarmPage, type AlarmProfile } from '../../../server/contract/alarm.ts';
import { notificationRoutes, type NotificationPage, type NotificationReadResult } from '../../../server/contract/notification.ts';
import { api } from '../../lib/api-client.ts';

export function ackAlarm(id: string): Promise<Alarm> {
  return api(alarmRoutes.ack, { params: { id } });
}

export function clearAlarm(id: string): Promise<Alarm> {
  return api(alarmRoutes.clear, { params: { id } });
}

export function ackAlarms(alarmIds: string[]): Promise<AlarmBatchResult> {
  return api(alarmRoutes.batchAck, { body: { alarmIds } });
}

export function clearAlarms(alarmIds: string[]): Promise<AlarmBatchResult> {
  return api(alarmRoutes.batchClear, { body: { alarmIds } });
}

/**
 * The popup's poll: the first page of ACTIVE_UNACK alarms. Silent: popup failures are only logged
 * (the caller logs them).
 */
export function pollActiveUnack(pageSize: number): Promise<AlarmPage> {
  return api(alarmRoutes.list, { query: { page: 1, pageSize, status: 'ACTIVE_UNACK' }, silent: true });
}

export function alarmProfile(organizationId: string): Promise<AlarmProfile> {
  return api(alarmRoutes.profile, { params: { organizationId }, silent: true });
}

export function listNotifications(pageSize: number): Promise<NotificationPage> {
  return api(notificationRoutes.list, { query: { page: 1, pageSize }, silent: true });
}

export function readNotifications(ids: string[]): Promise<NotificationReadResult> {
  return api(notificationRoutes.read, { body: { ids } });
}

export function readAllNotifications(): Promise<NotificationReadResult> {
  return api(notificationRoutes.readAll, {});
}
