/**
 * SQL for history blocks (migration 0012): a block's summary row without its bytes, its bytes on
 * demand, and writing a series' values as blocks (from rows, from staged values, or merging small
 * blocks). Callers run writes inside a transaction.
 */
import type { StatementSync } from 'node:sqlite';
import type { Db } from '../../db/sqlite.ts';
import { encodeBlock, decodeBlock } from './blocks/block-codec.ts';
import { summarize, type BlockSummary } from './blocks/block-summary.ts';
import { mergeNewer } from './history-merge.ts';
import type { HistoryRow } from './telemetry-rows.ts';

export interface BlockInfo extends BlockSummary {
  id: number;
}

interface BlockRecord {
  id: number;
  first_ts: number;
  last_ts: number;
  count: number;
  flagged: number;
  num_count: number;
  num_min: number | null;
  num_max: number | null;
  num_sum: number;
  num_sum_lo: number;
}

const SUMMARY = 'id, first_ts, last_ts, count, flagged, num_count, num_min, num_max, num_sum, num_sum_lo';

function infoOf(r: BlockRecord): BlockInfo {
  return {
    id: r.id,
    firstTs: r.first_ts,
    lastTs: r.last_ts,
    count: r.count,
    flagged: r.flagged,
    numCount: r.num_count,
    numMin: r.num_min,
    numMax: r.num_max,
    numSum: r.num_sum,
    numSumLo: r.num_sum_lo,
  };
}

export class HistoryBlocks {
  private readonly overlapAsc: StatementSync;
  private readonly overlapDesc: StatementSync;
  private readonly dataStatement: StatementSync;
  private readonly insertStatement: StatementSync;
  private readonly deleteStatement: StatementSync;
  private readonly appendableStatement: StatementSync;
  private readonly rowTsStatement: StatementSync;
  private readonly deleteRowStatement: StatementSync;
  private readonly spansStatement: StatementSync;

  constructor(private readonly db: Db) {
    const overlap = `SELECT ${SUMMARY} FROM ts_block WHERE series_id = ? AND first_ts <= ? AND last_ts >= ? ORDER BY first_ts`;
    this.overlapAsc = db.prepare(overlap);
    this.overlapDesc = db.prepare(`${overlap} DESC`);
    this.dataStatement = db.prepare('SELECT data FROM ts_block WHERE id = ?');
    this.insertStatement = db.prepare(
      `INSERT INTO ts_block (series_id, first_ts, last_ts, count, flagged, num_count, num_min, num_max, num_sum, num_sum_lo, data)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.deleteStatement = db.prepare('DELETE FROM ts_block WHERE id = ?');
    this.appendableStatement = db.prepare(
      `SELECT ${SUMMARY} FROM ts_block WHERE series_id = ? AND last_ts < ? AND first_ts >= ? ORDER BY first_ts DESC LIMIT 1`,
    );
    this.rowTsStatement = db.prepare('SELECT ts FROM ts_history WHERE series_id = ? AND ts >= ? AND ts <= ?');
    this.deleteRowStatement = db.prepare('DELETE FROM ts_history WHERE series_id = ? AND ts = ?');
    this.spansStatement = db.prepare('SELECT id, first_ts, last_ts, count FROM ts_block WHERE series_id = ? AND first_ts >= ? ORDER BY first_ts LIMIT ?');
  }

  /** Blocks of a series with a value in [from, to] (both inclusive), in first_ts order. */
  overlapping(seriesId: number, from: number, to: number, order: 'ASC' | 'DESC' = 'ASC'): BlockInfo[] {
    const statement = order === 'ASC' ? this.overlapAsc : this.overlapDesc;
    return (statement.all(seriesId, to, from) as unknown as BlockRecord[]).map(infoOf);
  }

  /** The series' last block before `ts` that starts at or after `since` (the day's block to append to). */
  before(seriesId: number, ts: number, since: number): BlockInfo | undefined {
    const r = this.appendableStatement.get(seriesId, ts, since) as BlockRecord | undefined;
    return r && infoOf(r);
  }

  rows(id: number): HistoryRow[] {
    const r = this.dataStatement.get(id) as { data: Uint8Array } | undefined;
    return r ? decodeBlock(r.data) : [];
  }

  /** Stores `rows` (ts ascending, no repeats) as one block. */
  insert(seriesId: number, rows: readonly HistoryRow[]): void {
    const s = summarize(rows);
    this.insertStatement.run(seriesId, s.firstTs, s.lastTs, s.count, s.flagged, s.numCount, s.numMin, s.numMax, s.numSum, s.numSumLo, encodeBlock(rows));
  }

  /** Stores `rows` (ts ascending, no repeats) as blocks of at most `points` values; returns how many. */
  insertAll(seriesId: number, rows: readonly HistoryRow[], points: number): number {
    let blocks = 0;
    for (let at = 0; at < rows.length; at += points, blocks++) this.insert(seriesId, rows.slice(at, at + points));
    return blocks;
  }

  /**
   * Stores `values` (one series, ts ascending, no repeats, one UTC day) as the newest writes of
   * their ts (staging-mover.ts): a row of one of their ts goes (a row would win over a block value
   * in queries); blocks whose span they reach are merged with them, so blocks still never overlap.
   * Usually neither exists (values newer than all history): one block insert, nothing rewritten.
   * Call inside a transaction.
   */
  writeNewest(seriesId: number, values: readonly HistoryRow[], points: number): number {
    const first = values[0]!.ts;
    const last = values[values.length - 1]!.ts;
    const rowTs = this.rowTsStatement.all(seriesId, first, last) as { ts: number }[];
    if (rowTs.length > 0) {
      const mine = new Set(values.map((v) => v.ts));
      for (const { ts } of rowTs) if (mine.has(ts)) this.deleteRowStatement.run(seriesId, ts);
    }
    const targets = this.overlapping(seriesId, first, last);
    if (targets.length === 0) return this.insertAll(seriesId, values, points);
    const merged = mergeNewer(
      targets.flatMap((b) => this.rows(b.id)),
      values,
    );
    for (const b of targets) this.delete(b.id);
    return this.insertAll(seriesId, merged, points);
  }

  /** Up to `limit` of the series' blocks from `from` on (first_ts), without summaries or bytes, in ts order. */
  spans(seriesId: number, from: number, limit: number): { id: number; firstTs: number; lastTs: number; count: number }[] {
    return (this.spansStatement.all(seriesId, from, limit) as { id: number; first_ts: number; last_ts: number; count: number }[]).map((b) => ({
      id: b.id,
      firstTs: b.first_ts,
      lastTs: b.last_ts,
      count: b.count,
    }));
  }

  /** Series with two blocks or more under `points` values that end before `before`: blocks the compactor merges. */
  seriesWithSmallBlocksBefore(before: number, points: number): number[] {
    return (
      this.db
        .prepare('SELECT series_id AS id FROM ts_block WHERE last_ts < ? AND count < ? GROUP BY series_id HAVING COUNT(*) > 1 ORDER BY series_id')
        .all(before, points) as { id: number }[]
    ).map((r) => r.id);
  }

  delete(id: number): void {
    this.deleteStatement.run(id);
  }

  /** Series with rows older than `before`: what the compactor has to do. */
  seriesWithRowsBefore(before: number): number[] {
    return (
      this.db
        .prepare('SELECT id FROM ts_latest l WHERE EXISTS (SELECT 1 FROM ts_history h WHERE h.series_id = l.id AND h.ts < ?) ORDER BY id')
        .all(before) as { id: number }[]
    ).map((r) => r.id);
  }

  /**
   * Drops the values older than `before` from up to `limit` of the series' oldest blocks (a block
   * that straddles `before` is written again with what remains). Call inside a transaction.
   */
  dropBefore(seriesId: number, before: number, limit: number): { blocks: number; values: number } {
    const old = this.db
      .prepare('SELECT id, last_ts, count FROM ts_block WHERE series_id = ? AND first_ts < ? ORDER BY first_ts LIMIT ?')
      .all(seriesId, before, limit) as { id: number; last_ts: number; count: number }[];
    let values = 0;
    for (const b of old) {
      const kept = b.last_ts < before ? [] : this.rows(b.id).filter((r) => r.ts >= before);
      this.delete(b.id);
      if (kept.length) this.insert(seriesId, kept);
      values += b.count - kept.length;
    }
    return { blocks: old.length, values };
  }

  /** Up to `limit` blocks of a deleted device's series; returns how many values they held. */
  deleteDeviceBlocks(deviceId: string, limit: number): { blocks: number; values: number } {
    const found = this.db
      .prepare('SELECT b.id, b.count FROM ts_latest l JOIN ts_block b ON b.series_id = l.id WHERE l.device_id = ? LIMIT ?')
      .all(deviceId, limit) as { id: number; count: number }[];
    let values = 0;
    for (const b of found) {
      this.delete(b.id);
      values += b.count;
    }
    return { blocks: found.length, values };
  }
}
