/**
 * The staged history values, the only code that names the staging tables besides a deleted device's
 * purge (telemetry-write-sql.ts): the ring file this binary writes (staging-log.ts, staging-ring.ts,
 * one record per commit), and two tables older binaries wrote, still read and moved until empty (a
 * gateway updated with values staged): ts_staging (migration 0014, one row per value) and
 * ts_staging_pack (migration 0047, one row per commit). Each came before the next, so arrival order
 * is the first table's rows by id, then the second's packs by id, then the ring's records by
 * sequence, and the values of a pack in order; among values of one series and ts the last to arrive
 * wins, as an overwrite does.
 */
import type { StatementSync } from 'node:sqlite';
import type { Db } from '../../db/sqlite.ts';
import { decodeStagedPack, encodeStagedPack, PACK_VALUES, pushStagedRecord, stagedColumns, type StagedColumns, type StagedRecord } from './staging-pack.ts';
import { stagingRingOf, type StagedPack, type StagingRing } from './staging-ring.ts';

const LEGACY_COLUMNS = 'series_id, ts, value_type, num_value, text_value, flag';

const sql = {
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
  moved: 'UPDATE ts_staging_moved SET up_to = ? WHERE id = 1',
  forgottenMoved: 'DELETE FROM ts_staging_forgotten WHERE up_to <= ?',
  forgotten: `INSERT INTO ts_staging_forgotten (series_id, up_to) VALUES (?, ?)
    ON CONFLICT(series_id) DO UPDATE SET up_to = excluded.up_to`,
};

/** The oldest staged values a move takes, and whether more stay staged. */
export interface StagedChunk {
  records: StagedRecord[];
  more: boolean;
  /** The ring's highest sequence taken (null: none): `markMoved` with it in the move's transaction, `release` after. */
  upTo: number | null;
}

export class StagingStore {
  private statements: Record<keyof typeof sql, StatementSync> | null = null;

  /** `ring`: another reading of the ring than the one `db`'s connection shares (readStagingRing). */
  constructor(
    private readonly db: Db,
    private readonly ownRing: StagingRing | null = null,
  ) {}

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

  private get ring(): StagingRing {
    return this.ownRing ?? stagingRingOf(this.db);
  }

  /**
   * Appends `c`'s values to the ring, one synced record per `PACK_VALUES`: when this returns they
   * survive a power cut. Call after the transaction that created their series committed, so that
   * no record names a series that a rollback took back.
   */
  append(c: StagedColumns): void {
    const n = c.series.length;
    for (let from = 0; from < n; from += PACK_VALUES) {
      const to = Math.min(n, from + PACK_VALUES);
      this.ring.append({ ...encodeStagedPack(c, from, to), count: to - from });
    }
  }

  /** Packs the history worker appended to the ring. */
  adopt(packs: readonly StagedPack[]): void {
    this.ring.adopt(packs);
  }

  /** Values staged now (the ring's packs and counts of the old tables, which the writer keeps small). */
  count(): number {
    let n = (this.s.count.get() as { n: number }).n;
    for (const p of this.ring.packs) n += p.count;
    return n;
  }

  /** Staged values with startTs <= ts < endTs of every series, in arrival order. */
  inRange(startTs: number, endTs: number): StagedRecord[] {
    const out = this.s.legacyInRange.all(startTs, endTs) as unknown as StagedRecord[];
    const fromPacks: StagedRecord[] = [];
    for (const { data } of this.s.packsInRange.all(startTs, endTs) as { data: Uint8Array }[]) decodeStagedPack(data, fromPacks);
    for (const p of this.ring.packs) if (p.maxTs >= startTs && p.minTs < endTs) decodeStagedPack(p.data, fromPacks);
    for (const r of fromPacks) if (r[1] >= startTs && r[1] < endTs) out.push(r);
    return out;
  }

  /** Every staged value in arrival order. */
  all(): StagedRecord[] {
    return this.inRange(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  }

  /**
   * Takes the oldest `chunk` values (whole packs: a few thousand more at most) out of staging, for
   * a move to store elsewhere in the same transaction. The old tables' values go first, alone.
   */
  takeOldest(chunk: number): StagedChunk {
    const legacy = this.s.legacyEnd.get(chunk, chunk) as { end: number | null; rest: number | null };
    if (legacy.end !== null) {
      const records = this.s.legacyBefore.all(legacy.end) as unknown as StagedRecord[];
      if (legacy.rest) this.s.legacyClear.run();
      else this.s.legacyClearBefore.run(legacy.end);
      return { records, more: true, upTo: null };
    }
    const packed = this.takeOldestPacks(chunk);
    if (packed.records.length) return { ...packed, more: true, upTo: null };
    return this.takeOldestRecords(chunk);
  }

  /** The ring's oldest packs, left in place: the move marks them moved, and `release` lets them go once it committed. */
  private takeOldestRecords(chunk: number): StagedChunk {
    const records: StagedRecord[] = [];
    let upTo: number | null = null;
    let taken = 0;
    const { packs } = this.ring;
    for (const p of packs) {
      if (taken >= chunk) break;
      decodeStagedPack(p.data, records);
      upTo = p.seq;
      taken += p.count;
    }
    return { records, more: upTo !== null && upTo < packs[packs.length - 1]!.seq, upTo };
  }

  /** In the move's transaction: the ring's packs up to `seq` are in blocks now; deleted devices' marks below it are spent. */
  markMoved(seq: number): void {
    this.s.moved.run(seq);
    this.s.forgottenMoved.run(seq);
  }

  /** After the move committed: memory lets its packs go, the ring may reuse their pages. */
  release(seq: number): void {
    this.ring.release(seq);
  }

  /** The old pack table's oldest packs (migration 0047), deleted in the move's transaction. */
  private takeOldestPacks(chunk: number): { records: StagedRecord[]; more: boolean } {
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

  /**
   * Drops the staged values of `series` (a deleted device's), rewriting the packs that hold some.
   * The ring keeps its records: the series are noted with the ring's last sequence, so that reading
   * it back after a restart leaves their values out. Call inside a transaction.
   */
  forget(series: ReadonlySet<number>): void {
    if (series.size === 0) return;
    const ring = this.ring;
    for (const id of series) {
      this.s.legacyForget.run(id);
      this.s.forgotten.run(id, ring.lastSeq);
    }
    ring.forget(series);
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
      for (const r of kept) pushStagedRecord(c, r);
      const pack = encodeStagedPack(c, 0, kept.length);
      this.s.rewritePack.run(kept.length, pack.minTs, pack.maxTs, pack.data, id);
    }
  }
}
