/**
 * Moves the staged history values (migration 0014) straight into compressed history blocks
 * (ts_block), oldest first, up to `MOVE_CHUNK` per transaction: per series and UTC day the staged
 * values (the last written among equal ts) become one block, usually appended beside the series'
 * earlier blocks without rewriting any (history-blocks.ts, `writeNewest`). The series-keyed
 * ts_history is skipped: its rows cost ~300 B per message on disk to insert, where a block of a
 * few hundred values costs ~2 B per value (docs/PERFORMANCE-FINDINGS.md, "Group commit, durability and
 * what a message writes to disk"). The compactor merges the small blocks of a day later.
 *
 * A kill at any point leaves each value staged or in a block, never both or neither
 * (tests/integration/history-staging-crash.test.ts). The writer starts a move at `moveRows`
 * (telemetry-writer.ts), so a move is normally one transaction that empties the table. The codec
 * runs in JS, so moves run on the main thread, between two commits (the history worker runs only
 * SQL); the compactor and retention move everything first so that they see every value.
 */
import type { StatementSync } from 'node:sqlite';
import { transaction, type Db } from '../../db/sqlite.ts';
import { HistoryBlocks } from './history-blocks.ts';
import { BLOCK_POINTS, dayOf } from './history-merge.ts';
import type { HistoryRow } from './telemetry-rows.ts';

/** Staged values one move transaction takes at most: bounds a move after a long time without one. */
export const MOVE_CHUNK = 65_536;

/** A staged row as the move reads it (an array: ~30 % less time than objects for 32,768 of them). */
type StagedRecord = [seriesId: number, ts: number, valueType: number, numValue: number | null, textValue: string | null, flag: string | null];

const byTs = (a: StagedRecord, b: StagedRecord): number => a[1] - b[1];

const sql = {
  /** The id the staged values of a move stop before (the oldest `?` of them go), and whether that is all of them. */
  end: 'SELECT MIN(id) + ? AS end, MIN(id) + ? > MAX(id) AS rest FROM ts_staging',
  /** In id order (the table's own, no sort): the move groups them by series and sorts each by ts. */
  staged: 'SELECT series_id, ts, value_type, num_value, text_value, flag FROM ts_staging WHERE id < ?',
  /**
   * The latest values are brought up to date at the move, not at each commit (one page fewer per
   * commit): per series the staged value with the greatest ts, the last among equals, unless
   * ts_latest holds a newer one (a late message goes to history only). Until then the reader
   * answers them from the staging table (TelemetryRepository.latest).
   */
  latest: 'UPDATE ts_latest SET ts = ?, value_type = ?, num_value = ?, text_value = ?, flag = ? WHERE id = ? AND ts <= ?',
  /** Freed staging pages are what the next appends reuse. */
  clearUpTo: 'DELETE FROM ts_staging WHERE id < ?',
  /**
   * A move of everything staged (the usual one) empties the table without WHERE, which frees its
   * pages without writing them, where deleting a range rewrites each leaf first.
   */
  clearAll: 'DELETE FROM ts_staging',
};

export class StagingMover {
  private readonly statements: Record<keyof typeof sql, StatementSync>;
  private readonly countStatement: StatementSync;
  private readonly blocks: HistoryBlocks;

  constructor(
    private readonly db: Db,
    private readonly blockPoints = BLOCK_POINTS,
  ) {
    this.statements = Object.fromEntries(Object.entries(sql).map(([k, s]) => [k, db.prepare(s)])) as Record<keyof typeof sql, StatementSync>;
    this.statements.staged.setReturnArrays(true);
    this.countStatement = db.prepare('SELECT COUNT(*) AS n FROM ts_staging');
    this.blocks = new HistoryBlocks(db);
  }

  /** Values staged now (a scan of the staging table, which the writer keeps small). */
  staged(): number {
    return (this.countStatement.get() as { n: number }).n;
  }

  /** Moves the oldest `chunk` staged values (or fewer: all there are); returns how many it moved. */
  move(chunk = MOVE_CHUNK): number {
    const s = this.statements;
    return transaction(this.db, () => {
      const { end, rest } = s.end.get(chunk, chunk) as { end: number | null; rest: number | null };
      if (end === null) return 0;
      this.writeSeries(s.staged.all(end) as unknown as StagedRecord[]);
      return Number((rest ? s.clearAll.run() : s.clearUpTo.run(end)).changes);
    });
  }

  /** Moves every staged value, a chunk per transaction. */
  moveAll(): number {
    let moved = 0;
    for (let n = MOVE_CHUNK; n === MOVE_CHUNK; moved += n) n = this.move();
    return moved;
  }

  /** `staged` (in id order) into blocks, one per series and UTC day, and each series' latest value. */
  private writeSeries(staged: readonly StagedRecord[]): void {
    const bySeries = new Map<number, StagedRecord[]>();
    for (const r of staged) {
      const list = bySeries.get(r[0]);
      if (list) list.push(r);
      else bySeries.set(r[0], [r]);
    }
    for (const [seriesId, list] of bySeries) {
      // Stable: among values of one ts, id (arrival) order stays. Arrival is mostly ts order already.
      if (!isSortedByTs(list)) list.sort(byTs);
      const newest = list[list.length - 1]!;
      this.statements.latest.run(newest[1], newest[2], newest[3], newest[4], newest[5], seriesId, newest[1]);
      this.writeBlocks(seriesId, list);
    }
  }

  /** One series' values (ts order, then arrival) as blocks, one per UTC day, the last of equal ts kept. */
  private writeBlocks(seriesId: number, list: readonly StagedRecord[]): void {
    let values: HistoryRow[] = [];
    for (let i = 0; i < list.length; i++) {
      const r = list[i]!;
      const next = list[i + 1];
      if (next && next[1] === r[1]) continue;
      values.push({ ts: r[1], valueType: r[2], numValue: r[3], textValue: r[4], flag: r[5] });
      if (!next || dayOf(next[1]) !== dayOf(r[1])) {
        this.blocks.writeNewest(seriesId, values, this.blockPoints);
        values = [];
      }
    }
  }
}

function isSortedByTs(list: readonly StagedRecord[]): boolean {
  for (let i = 1; i < list.length; i++) if (list[i]![1] < list[i - 1]![1]) return false;
  return true;
}
