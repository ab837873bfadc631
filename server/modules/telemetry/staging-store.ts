/**
 * The staged history values, the only SQL that names the staging tables besides a deleted device's
 * purge (telemetry-write-sql.ts): ts_staging_pack (migration 0047, one row per commit, staging-pack.ts),
 * which this binary writes, and ts_staging (migration 0014, one row per value), which a binary
 * before 0047 wrote and which is still read and moved until it is empty (a gateway updated with
 * values staged). Every value of ts_staging arrived before any pack, so arrival order is the old
 * table's rows by id, then the packs by id and their values in order; among values of one series
 * and ts the last to arrive wins, as an overwrite does.
 */
import type { StatementSync } from 'node:sqlite';
import type { Db } from '../../db/sqlite.ts';
import { writeSql } from './telemetry-write-sql.ts';
import { decodeStagedPack, encodeStagedPack, PACK_VALUES, stagedColumns, type StagedColumns, type StagedRecord } from './staging-pack.ts';

const LEGACY_COLUMNS = 'series_id, ts, value_type, num_value, text_value, flag';

const sql = {
  pack: writeSql.stagePack,
  count: 'SELECT (SELECT COUNT(*) FROM ts_staging) + (SELECT COALESCE(SUM(count), 0) FROM ts_staging_pack) AS n',
  legacyInRange: `SELECT ${LEGACY_COLUMNS} FROM ts_staging WHERE ts >= ? AND ts < ? ORDER BY id`,
  packsInRange: 'SELECT data FROM ts_staging_pack WHERE max_ts >= ? AND min_ts < ? ORDER BY id',
  /** The id the legacy values of a move stop before, and whether that is all of them. */
  legacyEnd: 'SELECT MIN(id) + ? AS end, MIN(id) + ? > MAX(id) AS rest FROM ts_staging',
  legacyBefore: `SELECT ${LEGACY_COLUMNS} FROM ts_staging WHERE id < ?`,
  legacyClearBefore: 'DELETE FROM ts_staging WHERE id < ?',
  /**
   * A move of everything staged (the usual one) empties a table without WHERE, which frees its
   * pages without writing them, where deleting a range rewrites each leaf first.
   */
  legacyClear: 'DELETE FROM ts_staging',
  packCounts: 'SELECT id, count FROM ts_staging_pack ORDER BY id',
  packsUpTo: 'SELECT data FROM ts_staging_pack WHERE id <= ? ORDER BY id',
  packsClearUpTo: 'DELETE FROM ts_staging_pack WHERE id <= ?',
  packsClear: 'DELETE FROM ts_staging_pack',
  allPacks: 'SELECT id, data FROM ts_staging_pack ORDER BY id',
  rewritePack: 'UPDATE ts_staging_pack SET count = ?, min_ts = ?, max_ts = ?, data = ? WHERE id = ?',
  dropPack: 'DELETE FROM ts_staging_pack WHERE id = ?',
  legacyForget: 'DELETE FROM ts_staging WHERE series_id = ?',
};

/** The oldest staged values a move takes, and whether more stay staged. */
export interface StagedChunk {
  records: StagedRecord[];
  more: boolean;
}

export class StagingStore {
  private statements: Record<keyof typeof sql, StatementSync> | null = null;

  constructor(private readonly db: Db) {}

  /**
   * Prepared on first use, not in the constructor: a repository opened over a database migrated
   * only part of the way (a migration's own test, before 0047 made ts_staging_pack) still opens
   * when it never touches staging.
   */
  private get s(): Record<keyof typeof sql, StatementSync> {
    if (this.statements) return this.statements;
    const s = Object.fromEntries(Object.entries(sql).map(([k, q]) => [k, this.db.prepare(q)])) as Record<keyof typeof sql, StatementSync>;
    s.legacyInRange.setReturnArrays(true);
    s.legacyBefore.setReturnArrays(true);
    return (this.statements = s);
  }

  /** Appends `c`'s values, one pack per `PACK_VALUES`. Call inside the commit's transaction. */
  append(c: StagedColumns): void {
    const n = c.series.length;
    for (let from = 0; from < n; from += PACK_VALUES) {
      const to = Math.min(n, from + PACK_VALUES);
      const pack = encodeStagedPack(c, from, to);
      this.s.pack.run(to - from, pack.minTs, pack.maxTs, pack.data);
    }
  }

  /** Values staged now (the pack counts and a count of the old table, which the writer keeps small). */
  count(): number {
    return (this.s.count.get() as { n: number }).n;
  }

  /** Staged values with startTs <= ts < endTs of every series, in arrival order. */
  inRange(startTs: number, endTs: number): StagedRecord[] {
    const out = this.s.legacyInRange.all(startTs, endTs) as unknown as StagedRecord[];
    const fromPacks: StagedRecord[] = [];
    for (const { data } of this.s.packsInRange.all(startTs, endTs) as { data: Uint8Array }[]) decodeStagedPack(data, fromPacks);
    for (const r of fromPacks) if (r[1] >= startTs && r[1] < endTs) out.push(r);
    return out;
  }

  /** Every staged value in arrival order. */
  all(): StagedRecord[] {
    return this.inRange(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  }

  /**
   * Takes the oldest `chunk` values (whole packs: a few thousand more at most) out of staging, for
   * a move to store elsewhere in the same transaction. The old table's values go first, alone.
   */
  takeOldest(chunk: number): StagedChunk {
    const legacy = this.s.legacyEnd.get(chunk, chunk) as { end: number | null; rest: number | null };
    if (legacy.end !== null) {
      const records = this.s.legacyBefore.all(legacy.end) as unknown as StagedRecord[];
      if (legacy.rest) this.s.legacyClear.run();
      else this.s.legacyClearBefore.run(legacy.end);
      return { records, more: true };
    }
    let last = -1;
    let taken = 0;
    let more = false;
    for (const { id, count } of this.s.packCounts.all() as { id: number; count: number }[]) {
      if (taken >= chunk) {
        more = true;
        break;
      }
      last = id;
      taken += count;
    }
    const records: StagedRecord[] = [];
    if (last < 0) return { records, more: false };
    for (const { data } of this.s.packsUpTo.all(last) as { data: Uint8Array }[]) decodeStagedPack(data, records);
    if (more) this.s.packsClearUpTo.run(last);
    else this.s.packsClear.run();
    return { records, more };
  }

  /** Drops the staged values of `series` (a deleted device's), rewriting the packs that hold some. Call inside a transaction. */
  forget(series: ReadonlySet<number>): void {
    if (series.size === 0) return;
    for (const id of series) this.s.legacyForget.run(id);
    for (const { id, data } of this.s.allPacks.all() as { id: number; data: Uint8Array }[]) {
      const records: StagedRecord[] = [];
      decodeStagedPack(data, records);
      const kept = records.filter((r) => !series.has(r[0]));
      if (kept.length === records.length) continue;
      if (kept.length === 0) {
        this.s.dropPack.run(id);
        continue;
      }
      const c = stagedColumns();
      for (const r of kept) pushRecord(c, r);
      const pack = encodeStagedPack(c, 0, kept.length);
      this.s.rewritePack.run(kept.length, pack.minTs, pack.maxTs, pack.data, id);
    }
  }
}

function pushRecord(c: StagedColumns, r: StagedRecord): void {
  c.series.push(r[0]);
  c.ts.push(r[1]);
  c.types.push(r[2]);
  c.nums.push(r[3]);
  c.texts.push(r[4]);
  c.flags.push(r[5]);
}
