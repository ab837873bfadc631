/**
 * The database size cap (`--history-max-mb`): on a timer, off the telemetry path. When the
 * database file plus its WAL exceeds the cap, the oldest history across all devices (rows and
 * blocks) is deleted in small transactions, a time slice at a time from the oldest value on,
 * until what the database holds is under the cap with headroom; then the freed pages go back to
 * the file system (auto_vacuum INCREMENTAL, `incremental_vacuum`, a WAL checkpoint that
 * truncates). Also samples what the database holds, for the growth rate the console shows.
 */
import { statfsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/sqlite.ts';
import { pruneSeriesBefore } from './history-prune.ts';
import type { TelemetryRepository } from './telemetry-repository.ts';

const HOUR_MS = 3_600_000;
/** Free pages returned to the file system per step (1 MB of 4 KB pages). */
const VACUUM_PAGES = 256;

export interface BudgetOptions {
  /** How often the size is compared with the cap and a growth sample is taken. */
  checkMs: number;
  /** Pruning stops once what the database holds is under this share of the cap. */
  headroom: number;
  /** Growth is measured over at most this long, and only once samples span `minSpanMs`. */
  windowMs: number;
  minSpanMs: number;
}

export const budgetDefaults: BudgetOptions = { checkMs: 60_000, headroom: 0.9, windowMs: HOUR_MS, minSpanMs: 10 * 60_000 };

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * Switches a database made before auto_vacuum was set to INCREMENTAL (server/db/sqlite.ts sets it
 * for new ones): SQLite applies the change only through one VACUUM, which rewrites the whole file
 * through the WAL, so it needs about twice the file's size free, and delays the start (measured:
 * ~3 s for a 147 MB history on the bench VM, ~20 ms per MB; expect several times that on eMMC).
 * Without the room it is left for a later start; a failure leaves the database as it was. Either
 * way pruning still frees pages for reuse, only without shrinking the file.
 */
export function ensureIncrementalVacuum(db: Db, file: string, minFreeBytes: number, log: FastifyBaseLogger): void {
  const { auto_vacuum: mode } = db.prepare('PRAGMA auto_vacuum').get() as { auto_vacuum: number };
  if (mode === 2) return;
  const bytes = sizeOf(file);
  const s = statfsSync(dirname(file));
  const free = Number(s.bavail) * Number(s.bsize);
  if (free < 2 * bytes + minFreeBytes) {
    log.warn({ bytes, free }, 'not enough free disk to switch the database to incremental auto-vacuum now: pruned history will not shrink the file');
    return;
  }
  const started = performance.now();
  try {
    db.exec('PRAGMA auto_vacuum = INCREMENTAL; VACUUM;');
    // The rewrite went through the WAL: give that space back at once.
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    log.info({ ms: Math.round(performance.now() - started), bytes }, 'database switched to incremental auto-vacuum (one-time VACUUM)');
  } catch (err) {
    log.warn({ err }, 'switching the database to incremental auto-vacuum failed: freed history pages are reused but the file does not shrink');
  }
}

export class HistoryBudget {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;
  private readonly samples: { ts: number; used: number }[] = [];
  private readonly options: BudgetOptions;

  private readonly db: Db;
  private readonly rows: TelemetryRepository;
  private readonly file: string;
  readonly maxBytes: number | null;
  private readonly log: FastifyBaseLogger;
  private readonly moveStaged: () => void;

  /**
   * `file`: the database file whose size is capped; `maxBytes`: the cap (`--history-max-mb`; null:
   * none); `moveStaged`: moves the staged values into the database, where pruning reaches them (the
   * staging ring beside it is a fixed buffer, not counted against the cap).
   */
  constructor(deps: { db: Db; rows: TelemetryRepository; file: string; maxBytes: number | null; log: FastifyBaseLogger; moveStaged: () => void; options?: Partial<BudgetOptions> }) {
    this.db = deps.db;
    this.moveStaged = deps.moveStaged;
    this.rows = deps.rows;
    this.file = deps.file;
    this.maxBytes = deps.maxBytes;
    this.log = deps.log;
    this.options = { ...budgetDefaults, ...deps.options };
  }

  start(): void {
    const tick = (): void => {
      this.sample();
      if (this.maxBytes !== null && this.fileBytes() > this.maxBytes) {
        this.enforce().catch((err: unknown) => this.log.error({ err }, 'pruning history to the size cap failed'));
      }
    };
    tick();
    this.timer = setInterval(tick, this.options.checkMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The database file plus its WAL. */
  fileBytes(): number {
    return sizeOf(this.file) + sizeOf(`${this.file}-wal`);
  }

  /** The pages in use (the file without its free pages). */
  usedBytes(): number {
    const count = (this.db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
    const free = (this.db.prepare('PRAGMA freelist_count').get() as { freelist_count: number }).freelist_count;
    const size = (this.db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
    return (count - free) * size;
  }

  /** Bytes per hour over the last window; null until the samples span long enough. */
  growthPerHour(): number | null {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.ts - first.ts < this.options.minSpanMs) return null;
    return ((last.used - first.used) / (last.ts - first.ts)) * HOUR_MS;
  }

  private sample(now = Date.now()): void {
    this.samples.push({ ts: now, used: this.usedBytes() });
    while (this.samples.length > 1 && now - this.samples[0]!.ts > this.options.windowMs) this.samples.shift();
  }

  /**
   * Prunes the oldest history until the database holds less than the cap's headroom share, then
   * returns the space; one run at a time. Returns the values deleted.
   */
  enforce(): Promise<number> {
    this.running ??= this.prune().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async prune(): Promise<number> {
    if (this.maxBytes === null) return 0;
    this.moveStaged();
    const target = this.maxBytes * this.options.headroom;
    const started = this.usedBytes();
    let values = 0;
    for (let used = started; used > target && !this.stopped; used = this.usedBytes()) {
      const oldest = this.rows.oldestHistoryTs();
      if (oldest === null) break;
      // A slice proportional to the share to free, assuming history grew evenly; at least an hour.
      const span = Math.max(Date.now() - oldest, HOUR_MS);
      const before = oldest + Math.max(HOUR_MS, Math.ceil((span * (used - target)) / used));
      for (const { id } of this.rows.series()) {
        if (this.stopped) break;
        values += await pruneSeriesBefore(this.db, this.rows, id, before, () => this.stopped);
      }
    }
    await this.reclaim();
    // Closing: the database may be gone after the last step.
    if (this.stopped) return values;
    this.log.warn({ values, usedBefore: started, usedAfter: this.usedBytes(), fileBytes: this.fileBytes(), maxBytes: this.maxBytes }, 'history pruned to the database size cap');
    return values;
  }

  /** Gives free pages back to the file system, a step at a time, and truncates the WAL. */
  async reclaim(): Promise<void> {
    const freePages = (): number => (this.db.prepare('PRAGMA freelist_count').get() as { freelist_count: number }).freelist_count;
    for (let before = freePages(); before > 0 && !this.stopped; ) {
      this.db.exec(`PRAGMA incremental_vacuum(${VACUUM_PAGES})`);
      const after = freePages();
      // Not INCREMENTAL (its one-time VACUUM failed): pages stay for reuse.
      if (after >= before) break;
      before = after;
      await yieldToLoop();
    }
    if (!this.stopped) this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }
}
