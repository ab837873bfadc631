/**
 * SQL for the telemetry tables of migrations 0005, 0007 and 0012: history (rows and blocks),
 * latest values, client attributes and event records. A series (device and key) is its row in ts_latest; history rows
 * name it by that row's id. Hot statements are prepared once; the batched writer calls them inside
 * its transaction.
 */
import type { StatementSync } from 'node:sqlite';
import type { Aggregation, TimeseriesOrder } from '../../contract/telemetry.ts';
import { transaction, type Db } from '../../db/sqlite.ts';
import { pageWindow, Where } from '../../db/list-query.ts';
import { decodeValue, encodeValue, ValueType } from './stored-value.ts';
import { HistoryBlocks } from './history-blocks.ts';
import { HistoryReader } from './history-reader.ts';
import type { AttributeRow, EventFilter, EventRecordRow, HistoryRow, LatestPoint, SequencedEvent, StoredPoint, TelemetryRow } from './telemetry-rows.ts';
import { attributeParams, eventParams, writeSql } from './telemetry-write-sql.ts';
import { stagedColumns, type StagedColumns } from './staging-pack.ts';
import { StagingStore } from './staging-store.ts';
import type { StagedPack } from './staging-ring.ts';

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

function pointOf(r: ValueRecord): StoredPoint {
  return { ts: r.ts, value: decodeValue(r.value_type, r.num_value, r.text_value), flag: r.flag };
}

function pointOfRow(r: HistoryRow): StoredPoint {
  return { ts: r.ts, value: decodeValue(r.valueType, r.numValue, r.textValue), flag: r.flag };
}

// Numbers are nearly every value: they skip encodeValue's object.
function stageRow(c: StagedColumns, series: number, row: TelemetryRow): void {
  c.series.push(series);
  c.ts.push(row.ts);
  c.flags.push(row.flag ?? null);
  if (typeof row.value === 'number') {
    c.types.push(ValueType.NUMBER);
    c.nums.push(row.value);
    c.texts.push(null);
    return;
  }
  const v = encodeValue(row.value);
  c.types.push(v.valueType);
  c.nums.push(v.numValue);
  c.texts.push(v.textValue);
}

/** What a message stores: its device's values in arrival order. */
export interface DeviceTelemetry {
  deviceId: string;
  telemetry?: readonly TelemetryRow[];
}

export class TelemetryRepository {
  private readonly staging: StagingStore;
  private readonly seriesStatement: StatementSync;
  private readonly newSeriesStatement: StatementSync;
  private readonly attributeStatement: StatementSync;
  private readonly eventStatement: StatementSync;
  /** The cloud link's event pump reads these on every wake-up; prepared when first used. */
  private eventsAfterStatement: StatementSync | null = null;
  private eventsWaitingStatement: StatementSync | null = null;
  /** device → key → series id (ts_latest.id); rows are only deleted through deleteDeviceState. */
  private readonly seriesIds = new Map<string, Map<string, number>>();
  /** History blocks (migration 0012): what the compactor made of older rows. */
  readonly blocks: HistoryBlocks;
  private readonly reader: HistoryReader;

  constructor(private readonly db: Db) {
    this.blocks = new HistoryBlocks(db);
    this.reader = new HistoryReader(db, this.blocks);
    this.staging = new StagingStore(db);
    this.seriesStatement = db.prepare(writeSql.series);
    this.newSeriesStatement = db.prepare(writeSql.newSeries);
    this.attributeStatement = db.prepare(writeSql.attribute);
    this.eventStatement = db.prepare(writeSql.event);
  }

  /**
   * Every value into staging, one synced record of the ring per call (staging-store.ts); the latest
   * values follow when the staged values are moved (staging-mover.ts), and are read from staging
   * until then. Not inside a transaction: `seriesOf` then `stage` after the commit.
   */
  insertTelemetry(batch: Iterable<DeviceTelemetry>): void {
    this.stage(this.seriesOf(batch));
  }

  /** Appends values whose series exist (their transaction committed) to staging. */
  stage(c: StagedColumns): void {
    if (c.series.length) this.staging.append(c);
  }

  /** Values of the packs the history worker appended, for readers until they are moved. */
  adoptStaged(packs: readonly StagedPack[]): void {
    this.staging.adopt(packs);
  }

  /**
   * The batch's values by series id, creating the series a device reports for the first time (call
   * inside the commit's transaction; stage the values once it committed).
   */
  seriesOf(batch: Iterable<DeviceTelemetry>): StagedColumns {
    const c = stagedColumns();
    for (const { deviceId, telemetry } of batch) {
      if (!telemetry) continue;
      let keys = this.seriesIds.get(deviceId);
      if (!keys) {
        keys = new Map();
        this.seriesIds.set(deviceId, keys);
      }
      for (const row of telemetry) {
        let series = keys.get(row.key);
        if (series === undefined) {
          series = this.seriesIdFor(deviceId, row);
          keys.set(row.key, series);
        }
        stageRow(c, series, row);
      }
    }
    return c;
  }

  /** The series' id, its latest row created (with `first`) when the device never reported the key. */
  private seriesIdFor(deviceId: string, first: TelemetryRow): number {
    const found = this.seriesStatement.get(deviceId, first.key) as { id: number } | undefined;
    if (found) return found.id;
    const v = encodeValue(first.value);
    return Number(this.newSeriesStatement.run(deviceId, first.key, first.ts, v.valueType, v.numValue, v.textValue, first.flag ?? null).lastInsertRowid);
  }

  upsertAttributes(deviceId: string, scope: string, rows: readonly AttributeRow[]): void {
    for (const row of rows) this.attributeStatement.run(...attributeParams(deviceId, scope, row));
  }

  /** Deletes `keys` of one scope; how many existed. */
  deleteAttributes(deviceId: string, scope: string, keys: readonly string[]): number {
    const result = this.db
      .prepare(`DELETE FROM attribute_kv WHERE device_id = ? AND scope = ? AND key IN (${keys.map(() => '?').join(', ')})`)
      .run(deviceId, scope, ...keys);
    return Number(result.changes);
  }

  insertEvent(e: EventRecordRow): void {
    this.eventStatement.run(...eventParams(e));
  }

  /** Up to `limit` event records stored after `seq`, in storage order. */
  eventsAfter(seq: number, limit: number): SequencedEvent[] {
    this.eventsAfterStatement ??= this.db.prepare('SELECT seq, device_id, ts, identifier, params FROM event_record WHERE seq > ? ORDER BY seq LIMIT ?');
    const rows = this.eventsAfterStatement.all(seq, limit) as unknown as { seq: number; device_id: string; ts: number; identifier: string; params: string }[];
    return rows.map((r) => ({ seq: r.seq, deviceId: r.device_id, ts: r.ts, identifier: r.identifier, params: r.params }));
  }

  /** How many event records were stored after `seq`, and the oldest one's ts (null: none). */
  eventsWaiting(seq: number): { count: number; oldestTs: number | null } {
    this.eventsWaitingStatement ??= this.db.prepare('SELECT COUNT(*) AS n, MIN(ts) AS oldest FROM event_record WHERE seq > ?');
    const row = this.eventsWaitingStatement.get(seq) as { n: number; oldest: number | null };
    return { count: row.n, oldestTs: row.oldest };
  }

  /** The `seq` of the newest event record (0: none yet). */
  newestEventSeq(): number {
    return (this.db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM event_record').get() as { seq: number }).seq;
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

  /**
   * The latest value of each key (of `keys`, or all): ts_latest's, or a staged value not moved yet,
   * applied in arrival order as the move applies them: one with a ts not older replaces it.
   */
  latest(deviceId: string, keys: readonly string[] | null): LatestPoint[] {
    const filter = keys ? `AND key IN (${keys.map(() => '?').join(', ')})` : '';
    const rows = this.db
      .prepare(`SELECT id, key, ts, value_type, num_value, text_value, flag FROM ts_latest WHERE device_id = ? ${filter} ORDER BY key`)
      .all(deviceId, ...(keys ?? [])) as unknown as (ValueRecord & { id: number; key: string })[];
    const bySeries = new Map<number, ValueRecord>();
    for (const r of rows) bySeries.set(r.id, r);
    // A scan of staging, which the writer keeps small (telemetry-writer.ts).
    for (const [series, ts, valueType, numValue, textValue, flag] of this.staging.all()) {
      const current = bySeries.get(series);
      if (current && ts >= current.ts) bySeries.set(series, { ts, value_type: valueType, num_value: numValue, text_value: textValue, flag });
    }
    return rows.map((r) => ({ key: r.key, ...pointOf(bySeries.get(r.id)!) }));
  }

  /** Raw values of one key with startTs <= ts < endTs, from rows and history blocks alike. */
  history(deviceId: string, key: string, startTs: number, endTs: number, limit: number, order: TimeseriesOrder): StoredPoint[] {
    const series = this.seriesIdOf(deviceId, key);
    if (series === undefined) return [];
    return this.reader.raw(series, startTs, endTs, limit, order).map(pointOfRow);
  }

  /**
   * One aggregate per non-empty `interval` bucket counted from startTs. MIN, MAX, AVG and SUM read
   * numbers and booleans; COUNT counts every value. Values flagged out of their property's range
   * are left out unless `includeOutOfRange` (history-aggregate.ts).
   */
  aggregate(
    deviceId: string,
    key: string,
    range: { startTs: number; endTs: number; interval: number },
    agg: Exclude<Aggregation, 'NONE'>,
    limit: number,
    order: TimeseriesOrder,
    includeOutOfRange = false,
  ): { bucket: number; value: number }[] {
    const series = this.seriesIdOf(deviceId, key);
    if (series === undefined) return [];
    return this.reader.aggregate(series, range, agg, limit, order, includeOutOfRange);
  }

  private seriesIdOf(deviceId: string, key: string): number | undefined {
    return (this.seriesStatement.get(deviceId, key) as { id: number } | undefined)?.id;
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

  /** Every series (device and key) with history: what retention walks, one key range each. */
  series(): { id: number; deviceId: string }[] {
    return (this.db.prepare('SELECT id, device_id FROM ts_latest').all() as { id: number; device_id: string }[]).map((r) => ({
      id: r.id,
      deviceId: r.device_id,
    }));
  }

  /** Deletes up to `chunk` history rows of one series older than `before`; returns how many. */
  deleteHistoryBefore(seriesId: number, before: number, chunk: number): number {
    const result = this.db
      .prepare('DELETE FROM ts_history WHERE series_id = ? AND ts IN (SELECT ts FROM ts_history WHERE series_id = ? AND ts < ? LIMIT ?)')
      .run(seriesId, seriesId, before, chunk);
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
      .prepare(
        `DELETE FROM ts_history WHERE (series_id, ts) IN (
           SELECT h.series_id, h.ts FROM ts_latest l JOIN ts_history h ON h.series_id = l.id WHERE l.device_id = ? LIMIT ?)`,
      )
      .run(deviceId, chunk);
    return Number(result.changes);
  }

  deleteDeviceEvents(deviceId: string, chunk: number): number {
    const result = this.db
      .prepare('DELETE FROM event_record WHERE id IN (SELECT id FROM event_record WHERE device_id = ? LIMIT ?)')
      .run(deviceId, chunk);
    return Number(result.changes);
  }

  /**
   * Latest values and attributes of a deleted device (a few rows per key), with whatever history
   * reached its series meanwhile: a series id must not outlive its history, it may be reused.
   */
  deleteDeviceState(deviceId: string): void {
    transaction(this.db, () => {
      const series = this.db.prepare('SELECT id FROM ts_latest WHERE device_id = ?').all(deviceId) as { id: number }[];
      this.staging.forget(new Set(series.map((r) => r.id)));
      for (const sql of writeSql.forgetDevice) this.db.prepare(sql).run(deviceId);
    });
    this.forgetDevice(deviceId);
  }

  /** Forgets a device's series ids (its rows were deleted, perhaps on another connection). */
  forgetDevice(deviceId: string): void {
    this.seriesIds.delete(deviceId);
  }

  /** The oldest value's ts in history, rows and blocks (one index probe per series); null when empty. */
  oldestHistoryTs(): number | null {
    const r = this.db
      .prepare(
        `SELECT MIN(MIN(COALESCE((SELECT MIN(ts) FROM ts_history WHERE series_id = l.id), 9e15),
                        COALESCE((SELECT MIN(first_ts) FROM ts_block WHERE series_id = l.id), 9e15))) AS oldest
         FROM ts_latest l`,
      )
      .get() as { oldest: number | null };
    return r.oldest === null || r.oldest >= 9e15 ? null : r.oldest;
  }

  /**
   * History per device: rows not compacted yet (the recent hour and any backlog, so counting them
   * reads few pages) and blocks with their values and bytes (summary columns; length() of a blob
   * does not read it).
   */
  historyUsage(): { deviceId: string; rows: number; blocks: number; blockValues: number; blockBytes: number }[] {
    const rows = this.db
      .prepare('SELECT l.device_id AS deviceId, COUNT(*) AS n FROM ts_latest l JOIN ts_history h ON h.series_id = l.id GROUP BY l.device_id')
      .all() as { deviceId: string; n: number }[];
    const blocks = this.db
      .prepare(
        `SELECT l.device_id AS deviceId, COUNT(*) AS n, SUM(b.count) AS v, SUM(length(b.data)) AS bytes
         FROM ts_latest l JOIN ts_block b ON b.series_id = l.id GROUP BY l.device_id`,
      )
      .all() as { deviceId: string; n: number; v: number; bytes: number }[];
    const usage = new Map<string, { deviceId: string; rows: number; blocks: number; blockValues: number; blockBytes: number }>();
    const of = (deviceId: string) => {
      let u = usage.get(deviceId);
      if (!u) usage.set(deviceId, (u = { deviceId, rows: 0, blocks: 0, blockValues: 0, blockBytes: 0 }));
      return u;
    };
    for (const r of rows) of(r.deviceId).rows = r.n;
    // Values still staged are rows too (moved into blocks within a minute).
    const staged = this.staging.all();
    if (staged.length) {
      const deviceOf = new Map(this.series().map((s) => [s.id, s.deviceId]));
      for (const [series] of staged) {
        const deviceId = deviceOf.get(series);
        if (deviceId !== undefined) of(deviceId).rows++;
      }
    }
    for (const b of blocks) Object.assign(of(b.deviceId), { blocks: b.n, blockValues: b.v, blockBytes: b.bytes });
    return [...usage.values()];
  }

  /** Forgets the series ids seen: a rolled-back batch may have created some that do not exist. */
  forgetSeries(): void {
    this.seriesIds.clear();
  }
}
