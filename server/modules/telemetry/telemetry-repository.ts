/**
 * SQL for the telemetry tables of migration 0005: history, latest values, client attributes and
 * event records. Hot statements (one per stored value) are prepared once; the batched writer calls
 * them inside its transaction.
 */
import type { StatementSync } from 'node:sqlite';
import type { Aggregation, TelemetryValue, TimeseriesOrder } from '../../contract/telemetry.ts';
import type { Db } from '../../db/sqlite.ts';
import { pageWindow, Where } from '../../db/list-query.ts';
import { decodeValue, encodeValue } from './stored-value.ts';

export const CLIENT_SCOPE = 'CLIENT_SCOPE';

/** One value to store. */
export interface TelemetryRow {
  ts: number;
  key: string;
  value: TelemetryValue;
  flag?: string;
}

export interface StoredPoint {
  ts: number;
  value: TelemetryValue;
  flag: string | null;
}

export interface LatestPoint extends StoredPoint {
  key: string;
}

export interface AttributeRow {
  key: string;
  value: TelemetryValue;
  lastUpdateTs: number;
  /** Why the value does not fit its property of the published model (attribute-checks.ts). */
  flag?: string;
}

export interface EventRecordRow {
  id: string;
  deviceId: string;
  ts: number;
  identifier: string;
  eventName: string | null;
  eventType: string;
  params: Record<string, unknown>;
  flag: string | null;
  createdTime: number;
}

/** Filters of the event record list (all optional, combined with AND; times inclusive). */
export interface EventFilter {
  identifier?: string;
  eventType?: string;
  startTime?: number;
  endTime?: number;
}

interface EventRecordRecord {
  id: string;
  device_id: string;
  ts: number;
  identifier: string;
  event_name: string | null;
  event_type: string;
  params: string;
  flag: string | null;
  create_time: number;
}

interface ValueRecord {
  ts: number;
  value_type: number;
  num_value: number | null;
  text_value: string | null;
  flag: string | null;
}

const aggregateSql: Record<Exclude<Aggregation, 'NONE'>, string> = {
  MIN: 'MIN(num_value)',
  MAX: 'MAX(num_value)',
  AVG: 'AVG(num_value)',
  SUM: 'SUM(num_value)',
  COUNT: 'COUNT(*)',
};

function pointOf(r: ValueRecord): StoredPoint {
  return { ts: r.ts, value: decodeValue(r.value_type, r.num_value, r.text_value), flag: r.flag };
}

export class TelemetryRepository {
  private readonly historyStatement: StatementSync;
  private readonly latestStatement: StatementSync;
  private readonly attributeStatement: StatementSync;
  private readonly eventStatement: StatementSync;

  constructor(private readonly db: Db) {
    // A repeated (device, key, ts) overwrites: QoS 1 redelivery stores a message once.
    this.historyStatement = db.prepare(
      `INSERT INTO ts_history (device_id, key, ts, value_type, num_value, text_value, flag) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(device_id, key, ts) DO UPDATE SET value_type = excluded.value_type, num_value = excluded.num_value,
         text_value = excluded.text_value, flag = excluded.flag`,
    );
    // A late message with an older ts goes to history but does not replace a newer latest value.
    this.latestStatement = db.prepare(
      `INSERT INTO ts_latest (device_id, key, ts, value_type, num_value, text_value, flag) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(device_id, key) DO UPDATE SET ts = excluded.ts, value_type = excluded.value_type,
         num_value = excluded.num_value, text_value = excluded.text_value, flag = excluded.flag
       WHERE excluded.ts >= ts_latest.ts`,
    );
    this.attributeStatement = db.prepare(
      `INSERT INTO attribute_kv (device_id, scope, key, last_update_ts, value_type, num_value, text_value, flag) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(device_id, scope, key) DO UPDATE SET last_update_ts = excluded.last_update_ts,
         value_type = excluded.value_type, num_value = excluded.num_value, text_value = excluded.text_value, flag = excluded.flag`,
    );
    this.eventStatement = db.prepare(
      `INSERT INTO event_record (id, device_id, ts, identifier, event_name, event_type, params, flag, create_time)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  insertTelemetry(deviceId: string, rows: readonly TelemetryRow[]): void {
    for (const row of rows) {
      const v = encodeValue(row.value);
      const flag = row.flag ?? null;
      this.historyStatement.run(deviceId, row.key, row.ts, v.valueType, v.numValue, v.textValue, flag);
      this.latestStatement.run(deviceId, row.key, row.ts, v.valueType, v.numValue, v.textValue, flag);
    }
  }

  upsertAttributes(deviceId: string, scope: string, rows: readonly AttributeRow[]): void {
    for (const row of rows) {
      const v = encodeValue(row.value);
      this.attributeStatement.run(deviceId, scope, row.key, row.lastUpdateTs, v.valueType, v.numValue, v.textValue, row.flag ?? null);
    }
  }

  insertEvent(e: EventRecordRow): void {
    this.eventStatement.run(e.id, e.deviceId, e.ts, e.identifier, e.eventName, e.eventType, JSON.stringify(e.params), e.flag, e.createdTime);
  }

  /** One page of a device's event records, newest first, and the total under the same filters. */
  eventPage(deviceId: string, filter: EventFilter, page: number, pageSize: number): { items: EventRecordRow[]; total: number } {
    const where = new Where().add('device_id = ?', deviceId);
    if (filter.identifier !== undefined) where.add('identifier = ?', filter.identifier);
    if (filter.eventType !== undefined) where.add('event_type = ?', filter.eventType);
    if (filter.startTime !== undefined) where.add('ts >= ?', filter.startTime);
    if (filter.endTime !== undefined) where.add('ts <= ?', filter.endTime);
    const { limit, offset } = pageWindow(page, pageSize);
    const rows = this.db
      .prepare(`SELECT * FROM event_record ${where.sql} ORDER BY ts DESC, rowid DESC LIMIT ? OFFSET ?`)
      .all(...where.params, limit, offset) as unknown as EventRecordRecord[];
    const { total } = this.db.prepare(`SELECT COUNT(*) AS total FROM event_record ${where.sql}`).get(...where.params) as { total: number };
    return {
      items: rows.map((r) => ({
        id: r.id,
        deviceId: r.device_id,
        ts: r.ts,
        identifier: r.identifier,
        eventName: r.event_name,
        eventType: r.event_type,
        params: JSON.parse(r.params) as Record<string, unknown>,
        flag: r.flag,
        createdTime: r.create_time,
      })),
      total,
    };
  }

  /** The latest value of each key (of `keys`, or all). */
  latest(deviceId: string, keys: readonly string[] | null): LatestPoint[] {
    const filter = keys ? `AND key IN (${keys.map(() => '?').join(', ')})` : '';
    const rows = this.db
      .prepare(`SELECT key, ts, value_type, num_value, text_value, flag FROM ts_latest WHERE device_id = ? ${filter} ORDER BY key`)
      .all(deviceId, ...(keys ?? [])) as unknown as (ValueRecord & { key: string })[];
    return rows.map((r) => ({ key: r.key, ...pointOf(r) }));
  }

  /** Raw values of one key with startTs <= ts < endTs. */
  history(deviceId: string, key: string, startTs: number, endTs: number, limit: number, order: TimeseriesOrder): StoredPoint[] {
    const rows = this.db
      .prepare(
        `SELECT ts, value_type, num_value, text_value, flag FROM ts_history
         WHERE device_id = ? AND key = ? AND ts >= ? AND ts < ? ORDER BY ts ${order === 'ASC' ? 'ASC' : 'DESC'} LIMIT ?`,
      )
      .all(deviceId, key, startTs, endTs, limit) as unknown as ValueRecord[];
    return rows.map(pointOf);
  }

  /**
   * One aggregate per non-empty `interval` bucket counted from startTs. MIN, MAX, AVG and SUM read
   * numbers and booleans; COUNT counts every value.
   */
  aggregate(
    deviceId: string,
    key: string,
    range: { startTs: number; endTs: number; interval: number },
    agg: Exclude<Aggregation, 'NONE'>,
    limit: number,
    order: TimeseriesOrder,
  ): { bucket: number; value: number }[] {
    const numeric = agg === 'COUNT' ? '' : 'AND value_type IN (0, 1)';
    return this.db
      .prepare(
        `SELECT (ts - CAST(? AS INTEGER)) / CAST(? AS INTEGER) AS bucket, ${aggregateSql[agg]} AS value FROM ts_history
         WHERE device_id = ? AND key = ? AND ts >= ? AND ts < ? ${numeric}
         GROUP BY bucket ORDER BY bucket ${order === 'ASC' ? 'ASC' : 'DESC'} LIMIT ?`,
      )
      .all(range.startTs, range.interval, deviceId, key, range.startTs, range.endTs, limit) as { bucket: number; value: number }[];
  }

  keys(deviceId: string): string[] {
    return (this.db.prepare('SELECT key FROM ts_latest WHERE device_id = ? ORDER BY key').all(deviceId) as { key: string }[]).map(
      (r) => r.key,
    );
  }

  attributes(deviceId: string, scope: string, keys: readonly string[] | null): AttributeRow[] {
    const filter = keys ? `AND key IN (${keys.map(() => '?').join(', ')})` : '';
    const rows = this.db
      .prepare(
        `SELECT key, last_update_ts, value_type, num_value, text_value, flag FROM attribute_kv
         WHERE device_id = ? AND scope = ? ${filter} ORDER BY key`,
      )
      .all(deviceId, scope, ...(keys ?? [])) as unknown as (Omit<ValueRecord, 'ts'> & { key: string; last_update_ts: number })[];
    return rows.map((r) => {
      const a: AttributeRow = { key: r.key, value: decodeValue(r.value_type, r.num_value, r.text_value), lastUpdateTs: r.last_update_ts };
      return r.flag ? { ...a, flag: r.flag } : a;
    });
  }

  /** Every (device, key) with history: what retention walks, one index range each. */
  series(): { deviceId: string; key: string }[] {
    return (this.db.prepare('SELECT device_id, key FROM ts_latest').all() as { device_id: string; key: string }[]).map((r) => ({
      deviceId: r.device_id,
      key: r.key,
    }));
  }

  /** Deletes up to `chunk` history rows of one series older than `before`; returns how many. */
  deleteHistoryBefore(deviceId: string, key: string, before: number, chunk: number): number {
    const result = this.db
      .prepare(
        `DELETE FROM ts_history WHERE id IN (
           SELECT id FROM ts_history WHERE device_id = ? AND key = ? AND ts < ? LIMIT ?)`,
      )
      .run(deviceId, key, before, chunk);
    return Number(result.changes);
  }

  deleteEventsBefore(before: number, chunk: number): number {
    const result = this.db
      .prepare('DELETE FROM event_record WHERE id IN (SELECT id FROM event_record WHERE ts < ? LIMIT ?)')
      .run(before, chunk);
    return Number(result.changes);
  }

  /** Deletes up to `chunk` history rows of a deleted device; returns how many. */
  deleteDeviceHistory(deviceId: string, chunk: number): number {
    const result = this.db
      .prepare('DELETE FROM ts_history WHERE id IN (SELECT id FROM ts_history WHERE device_id = ? LIMIT ?)')
      .run(deviceId, chunk);
    return Number(result.changes);
  }

  deleteDeviceEvents(deviceId: string, chunk: number): number {
    const result = this.db
      .prepare('DELETE FROM event_record WHERE id IN (SELECT id FROM event_record WHERE device_id = ? LIMIT ?)')
      .run(deviceId, chunk);
    return Number(result.changes);
  }

  /** Latest values and attributes of a deleted device (a few rows per key). */
  deleteDeviceState(deviceId: string): void {
    this.db.prepare('DELETE FROM ts_latest WHERE device_id = ?').run(deviceId);
    this.db.prepare('DELETE FROM attribute_kv WHERE device_id = ?').run(deviceId);
  }
}
