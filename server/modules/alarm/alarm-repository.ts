/** SQL for `alarm`; camelCase alarms in, snake_case columns out. */
import type { SQLInputValue } from 'node:sqlite';
import type { Alarm, AlarmDetails, AlarmListQuery, AlarmSeverity, AlarmStatus } from '../../contract/alarm.ts';
import type { Db } from '../../db/sqlite.ts';
import { containsPattern, pageWindow, Where } from '../../db/list-query.ts';
import type { AlarmFilter } from './alarm-filter.ts';

interface AlarmRecord {
  id: string;
  scene_linkage_id: string;
  scene_name: string;
  trigger_index: number | null;
  device_id: string | null;
  device_name: string | null;
  device_alias: string | null;
  organization_id: string | null;
  severity: AlarmSeverity;
  type: string;
  status: AlarmStatus;
  start_ts: number;
  end_ts: number | null;
  create_time: number;
  ack_ts: number | null;
  clear_ts: number | null;
  count: number;
  details: string;
}

function toAlarm(r: AlarmRecord): Alarm {
  return {
    id: r.id,
    sceneLinkageId: r.scene_linkage_id,
    sceneName: r.scene_name,
    deviceId: r.device_id,
    deviceName: r.device_name,
    deviceAlias: r.device_alias,
    organizationId: r.organization_id,
    severity: r.severity,
    type: r.type,
    status: r.status,
    startTs: r.start_ts,
    endTs: r.end_ts,
    createdTime: r.create_time,
    ackTs: r.ack_ts,
    clearTs: r.clear_ts,
    count: r.count,
    details: JSON.parse(r.details) as AlarmDetails,
  };
}

function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

function whereOf(f: AlarmFilter): Where {
  const where = new Where();
  const list = (column: string, values: readonly SQLInputValue[] | undefined): void => {
    if (values) where.add(`${column} IN (${placeholders(values.length) || 'NULL'})`, ...values);
  };
  list('status', f.statuses);
  list('severity', f.severities);
  list('type', f.types);
  list('device_id', f.deviceIds);
  list('organization_id', f.organizationIds);
  if (f.sceneLinkageId) where.add('scene_linkage_id = ?', f.sceneLinkageId);
  if (f.startTime !== undefined) where.add('create_time >= ?', f.startTime);
  if (f.endTime !== undefined) where.add('create_time <= ?', f.endTime);
  if (f.text) {
    const like = containsPattern(f.text);
    where.add("(type LIKE ? ESCAPE '\\' OR scene_name LIKE ? ESCAPE '\\' OR device_name LIKE ? ESCAPE '\\')", like, like, like);
  }
  return where;
}

export function filterOfQuery(q: AlarmListQuery): AlarmFilter {
  return {
    statuses: q.status ? [q.status] : undefined,
    severities: q.severity ? [q.severity] : undefined,
    deviceIds: q.deviceId ? [q.deviceId] : undefined,
    sceneLinkageId: q.sceneLinkageId,
    startTime: q.startTime,
    endTime: q.endTime,
  };
}

export class AlarmRepository {
  constructor(private readonly db: Db) {}

  page(filter: AlarmFilter, page: number, pageSize: number): { items: Alarm[]; total: number } {
    const where = whereOf(filter);
    const { limit, offset } = pageWindow(page, pageSize);
    const rows = this.db
      .prepare(`SELECT * FROM alarm ${where.sql} ORDER BY create_time DESC, rowid DESC LIMIT ? OFFSET ?`)
      .all(...where.params, limit, offset) as unknown as AlarmRecord[];
    return { items: rows.map(toAlarm), total: this.count(filter) };
  }

  count(filter: AlarmFilter): number {
    const where = whereOf(filter);
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM alarm ${where.sql}`).get(...where.params) as { n: number }).n;
  }

  /** Counts by status and severity of the alarms a filter selects. */
  countsBy(filter: AlarmFilter): { status: AlarmStatus; severity: AlarmSeverity; n: number }[] {
    const where = whereOf(filter);
    return this.db
      .prepare(`SELECT status, severity, COUNT(*) AS n FROM alarm ${where.sql} GROUP BY status, severity`)
      .all(...where.params) as unknown as { status: AlarmStatus; severity: AlarmSeverity; n: number }[];
  }

  findById(id: string): Alarm | undefined {
    const r = this.db.prepare('SELECT * FROM alarm WHERE id = ?').get(id) as AlarmRecord | undefined;
    return r && toAlarm(r);
  }

  /** The ids among `ids` that exist. */
  existing(ids: readonly string[]): Set<string> {
    const rows = this.db.prepare(`SELECT id FROM alarm WHERE id IN (${placeholders(ids.length)})`).all(...ids) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }

  /** The open (active) alarm of (scene, device, type), if any. */
  findOpen(sceneLinkageId: string, deviceId: string | null, type: string): Alarm | undefined {
    const r = this.db
      .prepare("SELECT * FROM alarm WHERE scene_linkage_id = ? AND ifnull(device_id, '') = ? AND type = ? AND status IN ('ACTIVE_UNACK', 'ACTIVE_ACK')")
      .get(sceneLinkageId, deviceId ?? '', type) as AlarmRecord | undefined;
    return r && toAlarm(r);
  }

  /** Open alarms a scene's trigger raised on a device (its clear rule clears them). */
  openOfTrigger(sceneLinkageId: string, triggerIndex: number, deviceId: string | null): Alarm[] {
    const rows = this.db
      .prepare(
        "SELECT * FROM alarm WHERE scene_linkage_id = ? AND trigger_index = ? AND ifnull(device_id, '') = ? AND status IN ('ACTIVE_UNACK', 'ACTIVE_ACK')",
      )
      .all(sceneLinkageId, triggerIndex, deviceId ?? '') as unknown as AlarmRecord[];
    return rows.map(toAlarm);
  }

  insert(a: Alarm, triggerIndex: number | null): void {
    this.db
      .prepare(
        `INSERT INTO alarm (id, scene_linkage_id, scene_name, trigger_index, device_id, device_name, device_alias, organization_id,
           severity, type, status, start_ts, end_ts, create_time, ack_ts, clear_ts, count, details)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        a.id,
        a.sceneLinkageId,
        a.sceneName,
        triggerIndex,
        a.deviceId,
        a.deviceName,
        a.deviceAlias,
        a.organizationId,
        a.severity,
        a.type,
        a.status,
        a.startTs,
        a.endTs,
        a.createdTime,
        a.ackTs,
        a.clearTs,
        a.count,
        JSON.stringify(a.details),
      );
  }

  /** Firing again: latest value, count, end time and severity. */
  refire(id: string, severity: AlarmSeverity, endTs: number, details: AlarmDetails): void {
    this.db
      .prepare('UPDATE alarm SET severity = ?, end_ts = ?, count = count + 1, details = ? WHERE id = ?')
      .run(severity, endTs, JSON.stringify(details), id);
  }

  setStatus(id: string, status: AlarmStatus, column: 'ack_ts' | 'clear_ts', ts: number): void {
    this.db.prepare(`UPDATE alarm SET status = ?, ${column} = ? WHERE id = ?`).run(status, ts, id);
  }
}
