/**
 * Moves the staged history values (migration 0014) straight into compressed history blocks
 * (ts_block), oldest first, up to `MOVE_CHUNK` per transaction: per series and UTC day the staged
 * values (the last written among equal ts) become one block, usually appended beside the series'
 * earlier blocks without rewriting any (history-blocks.ts, `writeNewest`). The series-keyed
 * ts_history is skipped: its rows cost ~300 B per message on disk to insert, where a block of a
 * few hundred values costs ~2 B per value (docs/ARCHITECTURE.md, "Group commit, durability and
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
import { historyRowOf, type HistoryRow } from './telemetry-rows.ts';

/** Staged values one move transaction takes at most: bounds a move after a long time without one. */
export const MOVE_CHUNK = 65_536;

/** A staged row as the move reads it. */
interface StagedRecord {
  series_id: number;
  ts: number;
  value_type: number;
  num_value: number | null;
  text_value: string | null;
  flag: string | null;
}

const sql = {
  /** The id the staged values of a move stop before (the oldest `?` of them go), and whether that is all of them. */
  end: 'SELECT MIN(id) + ? AS end, MIN(id) + ? > MAX(id) AS rest FROM ts_staging',
  /**
   * The latest values are brought up to date at the move, not at each commit (one page fewer per
   * commit): per series the staged value with the greatest ts, the last among equals, unless
   * ts_latest holds a newer one (a late message goes to history only). Until then the reader
   * answers them from the staging table (TelemetryRepository.latest).
   */
  latest: `UPDATE ts_latest SET ts = s.ts, value_type = s.value_type, num_value = s.num_value, text_value = s.text_value, flag = s.flag
    FROM (SELECT series_id, ts, value_type, num_value, text_value, flag,
            row_number() OVER (PARTITION BY series_id ORDER BY ts DESC, id DESC) AS n FROM ts_staging WHERE id < ?) AS s
    WHERE s.n = 1 AND ts_latest.id = s.series_id AND ts_latest.ts <= s.ts`,
  /** By series and ts, then id: of values with one (series, ts) the last to arrive is the newest write. */
  staged: 'SELECT series_id, ts, value_type, num_value, text_value, flag FROM ts_staging WHERE id < ? ORDER BY series_id, ts, id',
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
      s.latest.run(end);
      this.writeBlocks(s.staged.all(end) as unknown as StagedRecord[]);
      return Number((rest ? s.clearAll.run() : s.clearUpTo.run(end)).changes);
    });
  }

  /** Moves every staged value, a chunk per transaction. */
  moveAll(): number {
    let moved = 0;
    for (let n = MOVE_CHUNK; n === MOVE_CHUNK; moved += n) n = this.move();
    return moved;
  }

  /** `staged` (by series, ts, id) as blocks, one per series and UTC day. */
  private writeBlocks(staged: readonly StagedRecord[]): void {
    let values: HistoryRow[] = [];
    for (let i = 0; i < staged.length; i++) {
      const r = staged[i]!;
      const next = staged[i + 1];
      // A later write of the same series and ts follows: it is the one kept.
      if (next && next.series_id === r.series_id && next.ts === r.ts) continue;
      values.push(historyRowOf(r));
      if (!next || next.series_id !== r.series_id || dayOf(next.ts) !== dayOf(r.ts)) {
        this.blocks.writeNewest(r.series_id, values, this.blockPoints);
        values = [];
      }
    }
  }
}
