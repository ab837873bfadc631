/**
 * Live counts over `/api/ws` (server/contract/realtime.ts): the user's unread notifications
 * (NOTIFICATIONS_COUNT) and the number of alarms matching a status filter (ALARM_COUNT). Each
 * answer replaces the count; a refused subscription leaves it null (the views then show nothing
 * rather than a guess).
 */
import { useEffect, useState } from 'react';
import type { AlarmSearchStatus, WsUpdate } from '../../../server/contract/realtime.ts';
import { subscribe } from '../../lib/ws-client.ts';

/** The count carried by an update of either command, or undefined for other updates. */
export function countOf(update: WsUpdate): number | undefined {
  if (update.errorCode) return undefined;
  if (update.cmdUpdateType === 'NOTIFICATIONS_COUNT' && 'totalUnreadCount' in update) return update.totalUnreadCount;
  if (update.cmdUpdateType === 'ALARM_COUNT_DATA' && 'count' in update) return update.count;
  return undefined;
}

export function useUnreadNotifications(): number | null {
  const [count, setCount] = useState<number | null>(null);
  useEffect(
    () =>
      subscribe({ type: 'NOTIFICATIONS_COUNT' }, (update) => {
        const n = countOf(update);
        if (n !== undefined) setCount(n);
      }),
    [],
  );
  return count;
}

export function useAlarmCount(statusList: readonly AlarmSearchStatus[]): number | null {
  const key = statusList.join(',');
  const [count, setCount] = useState<number | null>(null);
  useEffect(
    () =>
      subscribe({ type: 'ALARM_COUNT', query: { statusList: key ? key.split(',') : [] } }, (update) => {
        const n = countOf(update);
        if (n !== undefined) setCount(n);
      }),
    [key],
  );
  return count;
}
