/**
 * History queries over rows and blocks together (docs/PERFORMANCE-FINDINGS.md, "History blocks"): the
 * staged values (staging-store.ts), the recent rows of ts_history and the compacted blocks of ts_block
 * answer as one series. Of values with the same ts the newer write is the one answered, as an
 * overwrite of a row is: a staged value (the greater id among staged ones) over a row, a row over a
 * block value.
 */
import type { StatementSync } from 'node:sqlite';
import type { TimeseriesOrder } from '../../contract/telemetry.ts';
import type { Db } from '../../db/sqlite.ts';
import { BucketFold, entersAggregate, type ValueAggregation } from './history-aggregate.ts';
import type { BlockInfo, HistoryBlocks } from './history-blocks.ts';
import type { StagedRecord } from './staging-pack.ts';
import { StagingStore } from './staging-store.ts';
import { historyRowOf, type HistoryRow, type HistoryRowRecord } from './telemetry-rows.ts';


/** Index of the first of `sorted` (ascending) that is ≥ ts. */
function lowerBound(sorted: readonly number[], ts: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `rows` (ts ascending, distinct) with the staged values (ts ascending, then id), a staged value
 * winning a tie, and among staged values of one ts the last.
 */
function withStaged(rows: HistoryRow[], staged: readonly StagedRecord[]): HistoryRow[] {
  if (staged.length === 0) return rows;
  const out: HistoryRow[] = [];
  let r = 0;
  for (let s = 0; s < staged.length; s++) {
    const v = staged[s]!;
    const ts = v[1];
    if (s + 1 < staged.length && staged[s + 1]![1] === ts) continue;
    while (r < rows.length && rows[r]!.ts < ts) out.push(rows[r++]!);
    if (r < rows.length && rows[r]!.ts === ts) r++;
    out.push({ ts, valueType: v[2], numValue: v[3], textValue: v[4], flag: v[5] });
  }
  while (r < rows.length) out.push(rows[r++]!);
  return out;
}

export interface AggregateRange {
  startTs: number;
  endTs: number;
  interval: number;
}

export class HistoryReader {
  private readonly rowsAsc: StatementSync;
  private readonly rowsDesc: StatementSync;
  private readonly staging: StagingStore;

  constructor(
    db: Db,
    private readonly blocks: HistoryBlocks,
  ) {
    this.staging = new StagingStore(db);
    const sql = 'SELECT ts, value_type, num_value, text_value, flag FROM ts_history WHERE series_id = ? AND ts >= ? AND ts < ? ORDER BY ts';
    this.rowsAsc = db.prepare(`${sql} LIMIT ?`);
    this.rowsDesc = db.prepare(`${sql} DESC LIMIT ?`);
  }

  /**
   * The series' rows and staged values with startTs <= ts < endTs, in `order`, at most `limit`
   * (-1: all). Rows have distinct ts, so the first `limit` rows and all staged values in range hold
   * the first `limit` of both.
   */
  private rows(seriesId: number, startTs: number, endTs: number, limit: number, asc: boolean): HistoryRow[] {
    const found = ((asc ? this.rowsAsc : this.rowsDesc).all(seriesId, startTs, endTs, limit) as unknown as HistoryRowRecord[]).map(historyRowOf);
    const staged = this.stagedOf(seriesId, startTs, endTs);
    if (staged.length === 0) return found;
    if (!asc) found.reverse();
    const all = withStaged(found, staged);
    if (!asc) all.reverse();
    return limit >= 0 && all.length > limit ? all.slice(0, limit) : all;
  }

  /**
   * The series' staged values with startTs <= ts < endTs, by ts and then arrival (a stable sort): a
   * scan of staging, which the writer keeps small (telemetry-writer.ts).
   */
  private stagedOf(seriesId: number, startTs: number, endTs: number): StagedRecord[] {
    const staged = this.staging.inRange(startTs, endTs).filter((r) => r[0] === seriesId);
    return staged.sort((a, b) => a[1] - b[1]);
  }

  /** Raw values with startTs <= ts < endTs, in `order`, at most `limit`. */
  raw(seriesId: number, startTs: number, endTs: number, limit: number, order: TimeseriesOrder): HistoryRow[] {
    const asc = order === 'ASC';
    const rows = this.rows(seriesId, startTs, endTs, limit, asc);
    if (endTs <= startTs) return rows;
    const blocks = this.blocks.overlapping(seriesId, startTs, endTs - 1, order);
    if (blocks.length === 0) return rows;
    // Two streams in the same order: the rows, and the blocks' values (blocks do not overlap).
    const before = (a: number, b: number): boolean => (asc ? a < b : a > b);
    const out: HistoryRow[] = [];
    let r = 0;
    for (const block of blocks) {
      const values = this.blocks.rows(block.id);
      if (!asc) values.reverse();
      for (const v of values) {
        if (v.ts < startTs || v.ts >= endTs) continue;
        while (r < rows.length && before(rows[r]!.ts, v.ts)) {
          out.push(rows[r++]!);
          if (out.length === limit) return out;
        }
        if (r < rows.length && rows[r]!.ts === v.ts) continue;
        out.push(v);
        if (out.length === limit) return out;
      }
    }
    while (r < rows.length && out.length < limit) out.push(rows[r++]!);
    return out;
  }

  /** One aggregate per non-empty `interval` bucket counted from startTs (bucket numbers from 0). */
  aggregate(
    seriesId: number,
    range: AggregateRange,
    agg: ValueAggregation,
    limit: number,
    order: TimeseriesOrder,
    includeOutOfRange: boolean,
  ): { bucket: number; value: number }[] {
    const { startTs, endTs, interval } = range;
    const folds = new Map<number, BucketFold>();
    const foldOf = (bucket: number): BucketFold => {
      let f = folds.get(bucket);
      if (!f) folds.set(bucket, (f = new BucketFold()));
      return f;
    };
    const bucketOf = (ts: number): number => Math.floor((ts - startTs) / interval);
    const add = (v: HistoryRow): void => {
      if (entersAggregate(agg, v, includeOutOfRange)) foldOf(bucketOf(v.ts)).add(agg, v.numValue);
    };
    const rows = this.rows(seriesId, startTs, endTs, -1, true);
    for (const v of rows) add(v);
    if (endTs > startTs) {
      const rowTs = rows.map((v) => v.ts);
      for (const block of this.blocks.overlapping(seriesId, startTs, endTs - 1)) this.foldBlock(block, range, rowTs, agg, add, foldOf);
    }
    const buckets = [...folds].filter(([, f]) => f.n > 0).sort(([a], [b]) => (order === 'ASC' ? a - b : b - a));
    return buckets.slice(0, limit).map(([bucket, f]) => ({ bucket, value: f.value(agg) }));
  }

  /**
   * A block's values into their buckets: its summary when the block lies in one bucket, has no
   * flagged value and no row shares its time span; else its values one by one, less those a row
   * overwrote.
   */
  private foldBlock(
    block: BlockInfo,
    range: AggregateRange,
    rowTs: readonly number[],
    agg: ValueAggregation,
    add: (v: HistoryRow) => void,
    foldOf: (bucket: number) => BucketFold,
  ): void {
    const { startTs, endTs, interval } = range;
    const firstRow = lowerBound(rowTs, block.firstTs);
    const rowsInside = firstRow < rowTs.length && rowTs[firstRow]! <= block.lastTs;
    const bucket = Math.floor((block.firstTs - startTs) / interval);
    const whole =
      block.firstTs >= startTs && block.lastTs < endTs && bucket === Math.floor((block.lastTs - startTs) / interval) && block.flagged === 0;
    if (whole && !rowsInside) {
      if (agg === 'COUNT' || block.numCount > 0) foldOf(bucket).addSummary(agg, block);
      return;
    }
    const overwritten = rowsInside ? new Set(rowTs.slice(firstRow, lowerBound(rowTs, block.lastTs + 1))) : null;
    for (const v of this.blocks.rows(block.id)) {
      if (v.ts < startTs || v.ts >= endTs || overwritten?.has(v.ts)) continue;
      add(v);
    }
  }
}
