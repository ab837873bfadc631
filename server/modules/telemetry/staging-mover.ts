/**
 * Moves the staged history values (migrations 0014 and 0047, staging-store.ts) straight into
 * compressed history blocks (ts_block), oldest first, about `MOVE_CHUNK` per transaction: per
 * series and UTC day the staged values (the last written among equal ts) become one block, usually appended beside the series'
 * earlier blocks without rewriting any (history-blocks.ts, `writeNewest`). The series-keyed
 * ts_history is skipped: its rows cost ~300 B per message on disk to insert, where a block of a
 * few hundred values costs ~2 B per value (docs/PERFORMANCE-FINDINGS.md, "Group commit, durability and
 * what a message writes to disk"). The compactor merges the small blocks of a day later.
 *
 * A kill at any point leaves each value staged or in a block, never both or neither
 * (tests/integration/history-staging-crash.test.ts): the ring's records stay in its file until
 * their pages are reused, and the mark written with the blocks says which are moved. The writer starts a move at `moveRows`
 * (telemetry-writer.ts), so a move is normally one transaction that empties the table. The codec
 * runs in JS, so moves run on the main thread, between two commits (the history worker runs only
 * SQL); the compactor and retention move everything first so that they see every value.
 */
import type { StatementSync } from 'node:sqlite';
import { transaction, type Db } from '../../db/sqlite.ts';
import { HistoryBlocks } from './history-blocks.ts';
import { BLOCK_POINTS, dayOf } from './history-merge.ts';
import type { StagedRecord } from './staging-pack.ts';
import { StagingStore } from './staging-store.ts';
import type { HistoryRow } from './telemetry-rows.ts';

/** Staged values one move transaction takes at most (whole packs: a pack more): bounds a move after a long time without one. */
export const MOVE_CHUNK = 65_536;

const byTs = (a: StagedRecord, b: StagedRecord): number => a[1] - b[1];

/**
 * The latest values are brought up to date at the move, not at each commit (one page fewer per
 * commit): per series the staged value with the greatest ts, the last among equals, unless
 * ts_latest holds a newer one (a late message goes to history only). Until then the reader
 * answers them from staging (TelemetryRepository.latest).
 */
const LATEST_SQL = 'UPDATE ts_latest SET ts = ?, value_type = ?, num_value = ?, text_value = ?, flag = ? WHERE id = ? AND ts <= ?';

/** What one move did: values moved, and whether more stay staged. */
export interface Moved {
  moved: number;
  more: boolean;
}

export class StagingMover {
  private readonly latest: StatementSync;
  private readonly blocks: HistoryBlocks;
  private readonly staging: StagingStore;

  constructor(
    private readonly db: Db,
    private readonly blockPoints = BLOCK_POINTS,
  ) {
    this.latest = db.prepare(LATEST_SQL);
    this.blocks = new HistoryBlocks(db);
    this.staging = new StagingStore(db);
  }

  /** Values staged now. */
  staged(): number {
    return this.staging.count();
  }

  /** Moves the oldest `chunk` staged values (whole packs, or all there are) in one transaction. */
  move(chunk = MOVE_CHUNK): Moved {
    const step = transaction(this.db, () => {
      const taken = this.staging.takeOldest(chunk);
      this.writeSeries(taken.records);
      if (taken.upTo !== null) this.staging.markMoved(taken.upTo);
      return taken;
    });
    // Only now, committed (a rolled-back move leaves them staged and readable).
    if (step.upTo !== null) this.staging.release(step.upTo);
    return { moved: step.records.length, more: step.more };
  }

  /** Moves every staged value, a chunk per transaction. */
  moveAll(): number {
    let moved = 0;
    for (let more = true; more; ) {
      const step = this.move();
      moved += step.moved;
      more = step.more;
    }
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
      this.latest.run(newest[1], newest[2], newest[3], newest[4], newest[5], seriesId, newest[1]);
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
