/** The rows of an alarm list widget: active alarms, newest first, merged from a first page and later changes. */
import type { AlarmSeverity, AlarmStatus } from '../../../server/contract/alarm.ts';

export interface AlarmRow {
  id: string;
  deviceId: string | null;
  deviceName: string | null;
  type: string;
  severity: AlarmSeverity;
  status: AlarmStatus;
  createdTime: number;
}

function isActive(row: AlarmRow): boolean {
  return row.status === 'ACTIVE_UNACK' || row.status === 'ACTIVE_ACK';
}

/** `rows` with `changed` applied: an alarm no longer active leaves, a new or changed one takes its place; newest first, at most `max`. */
export function mergeAlarmRows(rows: readonly AlarmRow[], changed: readonly AlarmRow[], max: number): AlarmRow[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const c of changed) {
    if (isActive(c)) byId.set(c.id, c);
    else byId.delete(c.id);
  }
  return [...byId.values()].sort((a, b) => b.createdTime - a.createdTime).slice(0, max);
}
