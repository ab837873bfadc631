/**
 * The staged packs of one database (staging-log.ts): the records of the ring file above the moved
 * mark, held in memory for readers (a move empties them at least every minute, so they are few),
 * and the ring's shared position. Every StagingStore of a connection shares one; the first to ask
 * reads the ring back. A database without a file (tests in memory) keeps its packs in memory only.
 */
import { closeSync } from 'node:fs';
import type { Db } from '../../db/sqlite.ts';
import { appendStagingRecord, openStagingRing, RING, ringIo } from './staging-log.ts';
import { decodeStagedPack, encodeStagedPack, pushStagedRecord, stagedColumns, type EncodedPack, type StagedColumns, type StagedRecord } from './staging-pack.ts';

/** One commit's values as the ring holds them. */
export interface StagedPack extends EncodedPack {
  seq: number;
  count: number;
}

/** What the history worker needs to continue the ring. */
export interface RingHandle {
  path: string;
  state: SharedArrayBuffer;
}

const MARK_SQL = 'SELECT up_to FROM ts_staging_moved WHERE id = 1';
const FORGOTTEN_SQL = 'SELECT series_id, up_to FROM ts_staging_forgotten';

export class StagingRing {
  /** Unmoved packs in sequence (arrival) order. */
  packs: StagedPack[] = [];
  readonly ring = new Float64Array(new SharedArrayBuffer(RING.length * Float64Array.BYTES_PER_ELEMENT));
  private fd: number | null = null;
  private closed = false;

  constructor(readonly path: string | null) {}

  /** Reads the ring back: the records above the moved mark, without the values of devices deleted since. */
  open(mark: number, forgotten: ReadonlyMap<number, number>): void {
    this.ring[RING.movedUpTo] = mark;
    this.ring[RING.lastSeq] = mark;
    this.ring[RING.nextSeq] = mark + 1;
    if (this.path === null) return;
    const { fd, size, records } = openStagingRing(this.path);
    this.fd = fd;
    this.ring[RING.size] = size;
    const unmoved = records.filter((r) => r.seq > mark).sort((a, b) => a.seq - b.seq);
    const newest = unmoved.at(-1);
    // Records at or below the mark may lie anywhere (an earlier lap): with none above it, the ring
    // may start over.
    this.ring[RING.lastSeq] = Math.max(mark, ...records.map((r) => r.seq));
    this.ring[RING.nextSeq] = this.ring[RING.lastSeq]! + 1;
    this.ring[RING.pos] = newest ? newest.end : 0;
    this.packs = unmoved
      .map((r) => withoutForgotten({ seq: r.seq, count: r.count, minTs: r.minTs, maxTs: r.maxTs, data: r.data }, forgotten))
      .filter((p): p is StagedPack => p !== null);
  }

  /** `c`'s values as one synced record (per `PACK_VALUES` values: encodeStagedPack's caller splits). */
  append(pack: EncodedPack & { count: number }): StagedPack {
    // Closed with the database: nothing may be acknowledged into memory alone.
    if (this.closed) throw new Error('the telemetry staging ring is closed');
    let seq: number;
    if (this.fd === null) {
      seq = this.ring[RING.nextSeq]!;
      this.ring[RING.nextSeq] = seq + 1;
      this.ring[RING.lastSeq] = seq;
    } else seq = appendStagingRecord(ringIo, this.fd, this.ring, pack).seq;
    const staged = { ...pack, seq };
    this.packs.push(staged);
    return staged;
  }

  /** Packs the history worker appended to the ring (it continued the shared position). */
  adopt(packs: readonly StagedPack[]): void {
    for (const p of packs) this.packs.push(p);
  }

  /** The highest sequence staged now (what a forgotten series' mark covers). */
  get lastSeq(): number {
    return this.ring[RING.lastSeq]!;
  }

  /** Packs up to `seq` are in blocks (their transaction committed): memory lets them go, the ring may reuse their pages. */
  release(seq: number): void {
    this.ring[RING.movedUpTo] = Math.max(this.ring[RING.movedUpTo]!, seq);
    let n = 0;
    while (n < this.packs.length && this.packs[n]!.seq <= seq) n++;
    if (n) this.packs = this.packs.slice(n);
  }

  /** Drops `series`' values from the packs in memory (the ring keeps them; ts_staging_forgotten hides them on reading back). */
  forget(series: ReadonlySet<number>): void {
    const forgotten = new Map([...series].map((id) => [id, Number.MAX_SAFE_INTEGER]));
    this.packs = this.packs.map((p) => withoutForgotten(p, forgotten)).filter((p): p is StagedPack => p !== null);
  }

  handle(): RingHandle | null {
    return this.path === null ? null : { path: this.path, state: this.ring.buffer as SharedArrayBuffer };
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.closed = true;
  }
}

/** `p` without the values of series forgotten at or after its sequence; null when none is left. */
function withoutForgotten(p: StagedPack, forgotten: ReadonlyMap<number, number>): StagedPack | null {
  if (forgotten.size === 0) return p;
  const records: StagedRecord[] = [];
  decodeStagedPack(p.data, records);
  const kept = records.filter((r) => !(p.seq <= (forgotten.get(r[0]) ?? -1)));
  if (kept.length === records.length) return p;
  if (kept.length === 0) return null;
  const c: StagedColumns = stagedColumns();
  for (const r of kept) pushStagedRecord(c, r);
  return { ...encodeStagedPack(c, 0, kept.length), seq: p.seq, count: kept.length };
}

const rings = new WeakMap<Db, StagingRing>();

/** The staged packs of `db`, read back from its ring on first use. */
export function stagingRingOf(db: Db): StagingRing {
  let ring = rings.get(db);
  if (!ring) rings.set(db, (ring = readStagingRing(db)));
  return ring;
}

/**
 * `db`'s ring as its file holds it now, apart from the one its connection shares: what a restart
 * would read back (tests look at it from a second connection). Close it after use.
 */
export function readStagingRing(db: Db): StagingRing {
  const file = db.location();
  const ring = new StagingRing(file ? `${file}-staging` : null);
  const mark = (db.prepare(MARK_SQL).get() as { up_to: number } | undefined)?.up_to ?? 0;
  const forgotten = new Map((db.prepare(FORGOTTEN_SQL).all() as { series_id: number; up_to: number }[]).map((r) => [r.series_id, r.up_to]));
  ring.open(mark, forgotten);
  return ring;
}
