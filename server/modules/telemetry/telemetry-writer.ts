/**
 * The batched writer (group commit): device messages queue here and are committed together, one
 * transaction per batch. When no commit is running, a message's batch is committed on the next
 * turn of the event loop, with whatever arrived in the same turn; while one runs (on the history
 * worker), arriving messages gather for the next, which starts as soon as it ends. So a lone
 * device waits for one commit, not for a window, and under load batches grow by themselves as long
 * as a commit takes. A batch holds at most `maxRows` rows, so a storm cannot build a giant
 * transaction. A message's callback runs only after its batch is committed, which is what lets
 * the broker hold a QoS 1 PUBACK until the data is on disk (server/db/sqlite.ts syncs the WAL at
 * each commit), so an acknowledged message survives a power cut. After the commit it announces
 * `telemetry.stored` (one per device and batch), `device.eventReported` and `message.received`.
 *
 * Tens of thousands of messages a second pass through here, so the queue holds plain callbacks
 * (no promise per message on the MQTT path) and the stored rows travel on to the announcements as
 * they are. Once a batch reaches `workerFrom` messages, batches are committed by the history
 * worker (history-worker.ts) instead, one at a time, while the next one gathers; after
 * WORKER_IDLE_MS without such a batch the worker stops and commits return to the main thread.
 *
 * No message can fail another's commit: a batch that fails for a reason one message can cause
 * (commit-failure.ts) is committed again in halves, down to the message at fault, whose callback
 * alone gets the error; the others are stored and acknowledged. A batch the worker failed so is
 * split on the main thread; a message the main thread cannot pack for the worker fails alone.
 *
 * History values are appended to staging, one packed row per commit (staging-pack.ts, migration
 * 0047), and moved into compressed
 * history blocks once `moveRows` are staged or every `moveMs` (staging-mover.ts), a chunk per
 * transaction between two commits, on the main thread (the block codec is JS, the worker runs
 * only SQL) while the worker has no batch in flight, so a move never waits for its lock.
 */
import type { FastifyBaseLogger } from 'fastify';
import { transaction, type Db } from '../../db/sqlite.ts';
import type { TelemetryEntry } from '../../contract/telemetry.ts';
import type { Announce, EventBus } from '../../lib/event-bus.ts';
import { isMessageFault } from './commit-failure.ts';
import { HistoryWorker, packBatch, type BatchJob } from './history-worker.ts';
import { CommitBudget } from './commit-budget.ts';
import { StagingMover, type Moved } from './staging-mover.ts';
import { stagingRingOf } from './staging-ring.ts';
import type { TelemetryRepository } from './telemetry-repository.ts';
import { CLIENT_SCOPE, type AttributeRow, type EventRecordRow, type TelemetryRow } from './telemetry-rows.ts';

/** One device message, whatever it carries (or a deleted device's purge). */
export interface WriteJob extends BatchJob {
  deviceProfileId: string;
  /** Size of the message as received, for the message volume. */
  bytes: number;
  telemetry?: TelemetryRow[];
  attributes?: AttributeRow[];
  events?: EventRecordRow[];
}

/** Told once the message's batch is committed (null), or why it was not. */
export type Committed = (err: Error | null) => void;

export interface WriterOptions {
  /**
   * Rows (values, attributes, events) one transaction holds at most; a message with more is
   * committed alone. Bounds a commit's time and the WAL a storm can grow in one go.
   */
  maxRows: number;
  /** Messages in one batch that start the history worker; 0: never. */
  workerFrom: number;
  /**
   * Staged history values that make the next commit move them into history blocks first; 0:
   * never. Queries scan the staging table, so this bounds their cost (~4 ms at 32,768 values);
   * more values per move make larger blocks (fewer bytes per value before the compactor merges them).
   */
  moveRows: number;
  /** Staged values are moved at least this often (ms), so a quiet gateway's queries scan little; 0: never. */
  moveMs: number;
  /**
   * At saturation (a batch of `workerFrom` messages or more within `saturatedMs`), a batch of fewer than
   * `gatherMessages` waits up to `gatherMs` for more before it is committed; 0: never. A commit
   * writes ~5 pages whatever its size (docs/PERFORMANCE-FINDINGS.md, "Group commit, durability and what a
   * message writes to disk"), and on a fast disk commits left with ~150-250 messages each: waiting
   * 3 ms made them ~350-550 and the bytes per message 155 → 117 B, for up to 3 ms more per PUBACK
   * under load only (a lone device or a paced fleet never waits).
   */
  gatherMs: number;
  gatherMessages: number;
  /**
   * How long after a batch of `workerFrom` messages or more the writer counts as saturated (its
   * batches may gather), in ms. Judged from the previous batch alone, one gathered batch that fell
   * short of `workerFrom` (at ~80k msg/s, 3 ms bring ~250 messages) ended it: the next ones left
   * at once with what a short commit let arrive, dozens of commits a second held 1-100 messages,
   * and the bench wrote 139-156 B per message; with this, 114-116 B.
   */
  saturatedMs: number;
  /**
   * The commit budget for flash storage (docs/ARCHITECTURE.md, "Commit policy and flash wear"): once
   * `commitBurst` commits went back to back, the next one starts `commitIntervalMs` after the one
   * before it (a token bucket: one commit per interval, up to `commitBurst` saved up); 0: every batch
   * is committed at once. A commit writes whole 4 KB pages however few messages it holds, so a paced
   * fleet whose messages each got a commit wrote ~8 KB per message; sharing commits, ~100-200 B.
   * A lone slow device finds a saved commit and is acknowledged at once.
   */
  commitIntervalMs: number;
  commitBurst: number;
  /** A batch of this many messages is committed at once whatever the budget (its pages are full anyway), so saturation is not capped at a commit rate. */
  commitBatch: number;
}

/**
 * 256 messages gathered in one turn of the loop is well above a thousand devices reporting each
 * second, which the main thread commits cheaply without the worker's memory (~20 MB). 4,096 rows
 * commit in a few milliseconds and keep each page a batch touches well used (fewer bytes written
 * per message).
 */
export const defaultWriterOptions: WriterOptions = {
  maxRows: 4096,
  workerFrom: 256,
  moveRows: 32_768,
  moveMs: 60_000,
  gatherMs: 3,
  gatherMessages: 1024,
  saturatedMs: 1000,
  commitIntervalMs: 0,
  commitBurst: 1,
  commitBatch: 256,
};

/** A worker without a batch of `workerFrom` messages for this long stops. */
export const WORKER_IDLE_MS = 30_000;

/** The rows a message adds to its transaction (at least one: a purge or an empty message still costs a statement). */
function rowsOf(job: WriteJob): number {
  return Math.max(1, (job.telemetry?.length ?? 0) + (job.attributes?.length ?? 0) + (job.events?.length ?? 0));
}

export interface TelemetryWriterDeps {
  db: Db;
  bus: EventBus;
  rows: TelemetryRepository;
  log: FastifyBaseLogger;
  options?: Partial<WriterOptions>;
  /** Values per history block at most, as the compactor's (`tuning.compactor.blockPoints`). */
  blockPoints?: number;
}

/** `enqueue` as a promise, for callers that await. */
export function committed(enqueue: (done: Committed) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => enqueue((err) => (err ? reject(err) : resolve())));
}

export class TelemetryWriter {
  private jobs: WriteJob[] = [];
  private callbacks: Committed[] = [];
  private immediate: NodeJS.Immediate | null = null;
  private closed = false;
  /** Shutting down: the last batches are committed here, no worker starts. */
  private closing = false;
  private worker: HistoryWorker | null = null;
  /** A worker died once: commits stay on the main thread. */
  private workerFailed = false;
  private lastBigBatch = 0;
  private readonly options: WriterOptions;
  /** A listener's failure must not undo a commit nor keep the others from hearing of it. */
  private readonly emit: Announce;
  private readonly flushNow = (): void => this.flush();
  private readonly mover: StagingMover;
  /** Values staged since the last move (as far as this writer knows). */
  private staged: number;
  /** The next commit moves a chunk of staged values first. */
  private moveDue = false;
  private moveTimer: NodeJS.Timeout | null = null;
  private gatherTimer: NodeJS.Timeout | null = null;
  /** The gathering wait is over: the next flush commits what is queued. */
  private gathered = false;
  private readonly budget: CommitBudget;
  private budgetTimer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: TelemetryWriterDeps) {
    this.options = { ...defaultWriterOptions, ...deps.options };
    this.budget = new CommitBudget(this.options.commitIntervalMs, this.options.commitBurst);
    this.emit = (event, payload) => deps.bus.emit(event, payload);
    this.mover = new StagingMover(deps.db, deps.blockPoints);
    // Values a previous run left staged count towards the next move.
    this.staged = this.mover.staged();
    this.moveDue = this.options.moveRows > 0 && this.staged >= this.options.moveRows;
    if (this.options.moveMs > 0) {
      this.moveTimer = setInterval(() => {
        if (this.staged === 0) return;
        this.moveDue = true;
        if (!this.worker?.busy) this.immediate ??= setImmediate(this.flushNow);
      }, this.options.moveMs);
      this.moveTimer.unref();
    }
  }

  /** Queues `job`; `done` runs once its batch is committed, or with the error when the commit failed. */
  enqueue(job: WriteJob, done: Committed): void {
    if (this.closed) {
      queueMicrotask(() => done(new Error('telemetry writer closed')));
      return;
    }
    this.jobs.push(job);
    this.callbacks.push(done);
    // Whatever else this turn of the loop reads joins the batch. While the worker commits, the end
    // of its commit starts the next batch instead.
    if (!this.worker?.busy) this.immediate ??= setImmediate(this.flushNow);
  }

  /** Queues `job`; resolves once its batch is committed, rejects when the commit failed. */
  write(job: WriteJob): Promise<void> {
    return committed((done) => this.enqueue(job, done));
  }

  /**
   * Commits the next batch queued now (or, while the worker commits one, as soon as it is done).
   * What the row bound left queued follows on the next turn, so the sockets are read in between.
   */
  flush(): void {
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = null;
    if (this.worker?.busy) return;
    // On this thread even when the worker commits the batches: the move encodes blocks in JS
    // (staging-mover.ts), and the worker is idle here, so it waits for no lock.
    if (this.moveDue) this.moveChunk();
    if (this.jobs.length === 0) {
      // The rest of a move follows on the next turn, sockets read in between.
      if (this.moveDue) this.immediate ??= setImmediate(this.flushNow);
      return;
    }
    if (this.pacing() || this.gathering()) return;
    this.commitQueued();
  }

  /** Whether the queued batch waits for more first (`gatherMs`); a batch waits once. */
  private gathering(): boolean {
    const { gatherMs, gatherMessages, saturatedMs } = this.options;
    const saturated = Date.now() - this.lastBigBatch <= saturatedMs;
    if (this.gathered || gatherMs <= 0 || this.closing || !saturated || !this.worker || this.jobs.length >= gatherMessages) {
      // A wait cut short by `gatherMessages` must not end the next batch's.
      if (this.gatherTimer) clearTimeout(this.gatherTimer);
      this.gatherTimer = null;
      this.gathered = false;
      return false;
    }
    this.gatherTimer ??= setTimeout(() => {
      this.gatherTimer = null;
      this.gathered = true;
      this.flush();
    }, gatherMs);
    return true;
  }

  /** Whether the queued batch waits for the commit budget (`commitIntervalMs`); its timer flushes it then. */
  private pacing(): boolean {
    // A full batch goes now even while a wait for the budget runs: saturation must not be capped
    // at one commit per interval (that halved the saturated throughput).
    if (this.closing || this.jobs.length >= this.options.commitBatch) {
      if (this.budgetTimer) clearTimeout(this.budgetTimer);
      this.budgetTimer = null;
      this.budget.spend(Date.now());
      return false;
    }
    if (this.budgetTimer) return true;
    const wait = this.budget.take(Date.now());
    if (wait === 0) return false;
    this.budgetTimer = setTimeout(() => {
      this.budgetTimer = null;
      this.budget.spend(Date.now());
      this.commitQueued();
    }, wait);
    return true;
  }

  /** Commits the queued batch now, the budget already paid (the worker, if busy, takes it next). */
  private commitQueued(): void {
    if (this.worker?.busy || this.jobs.length === 0) return;
    const { jobs, callbacks } = this.takeBatch();
    const worker = jobs.some((j) => j.purge) ? this.stopWorkerForPurge() : this.pickWorker(jobs.length);
    if (worker) this.commitInWorker(worker, jobs, callbacks);
    else this.commitHere(jobs, callbacks);
    if (this.jobs.length && !this.worker?.busy) this.immediate ??= setImmediate(this.flushNow);
  }

  /** The queued messages up to `maxRows` rows (at least one message), in arrival order. */
  private takeBatch(): { jobs: WriteJob[]; callbacks: Committed[] } {
    const queued = this.jobs;
    const { maxRows } = this.options;
    let n = 0;
    for (let rows = 0; n < queued.length; n++) {
      rows += rowsOf(queued[n]!);
      if (rows > maxRows && n > 0) break;
    }
    if (n === queued.length) {
      const taken = { jobs: queued, callbacks: this.callbacks };
      this.jobs = [];
      this.callbacks = [];
      return taken;
    }
    return { jobs: queued.splice(0, n), callbacks: this.callbacks.splice(0, n) };
  }

  /**
   * Moves every staged value into history blocks now, on the main thread; while the worker commits a
   * batch, this waits for its write lock (the busy timeout), as the compactor's steps do.
   */
  moveStaged(): void {
    this.mover.moveAll();
    this.staged = 0;
    this.moveDue = false;
  }

  private moveChunk(): void {
    try {
      this.moved(this.mover.move());
    } catch (err) {
      // They stay staged, readable and safe; the next move takes them along.
      this.moveDue = false;
      this.deps.log.error({ err }, 'moving staged telemetry into history failed');
    }
  }

  /** A chunk of staged values was moved: more may be left for the next turn. */
  private moved({ moved, more }: Moved): void {
    this.staged = more ? Math.max(0, this.staged - moved) : 0;
    this.moveDue = more;
  }

  /** Commits what is queued and refuses further writes. */
  close(): void {
    if (this.moveTimer) clearInterval(this.moveTimer);
    this.moveTimer = null;
    if (this.gatherTimer) clearTimeout(this.gatherTimer);
    this.gatherTimer = null;
    if (this.budgetTimer) clearTimeout(this.budgetTimer);
    this.budgetTimer = null;
    this.closing = true;
    const worker = this.worker;
    this.worker = null;
    // Reports the batch in flight; what queued meanwhile is committed here.
    worker?.close();
    while (this.jobs.length) this.flush();
    this.closed = true;
  }

  /**
   * A purge rewrites the staged packs that hold the device's values in JS (staging-store.ts) on
   * this thread; the worker (not busy here) stops, so that no series id it remembers outlives the
   * rows the purge deletes. It starts again with the next large batch.
   */
  private stopWorkerForPurge(): null {
    this.worker?.close();
    this.worker = null;
    return null;
  }

  private pickWorker(messages: number): HistoryWorker | null {
    const { workerFrom } = this.options;
    const now = Date.now();
    if (workerFrom > 0 && messages >= workerFrom) {
      this.lastBigBatch = now;
      if (!this.worker && !this.workerFailed && !this.closing) this.worker = this.startWorker();
    } else if (this.worker && now - this.lastBigBatch > WORKER_IDLE_MS) {
      this.worker.close();
      this.worker = null;
    }
    return this.worker;
  }

  private startWorker(): HistoryWorker | null {
    const file = this.deps.db.location();
    const ring = stagingRingOf(this.deps.db).handle();
    if (!file || !ring) return null;
    try {
      return new HistoryWorker(file, ring, (err) => {
        this.deps.log.error({ err }, 'telemetry history worker failed; committing on the main thread');
        this.workerFailed = true;
        this.worker = null;
        if (this.jobs.length) this.immediate ??= setImmediate(this.flushNow);
      });
    } catch (err) {
      this.deps.log.error({ err }, 'telemetry history worker did not start; committing on the main thread');
      this.workerFailed = true;
      return null;
    }
  }

  private commitHere(jobs: WriteJob[], callbacks: Committed[]): void {
    const { db, rows } = this.deps;
    try {
      const staged = transaction(db, () => {
        const values = rows.seriesOf(jobs);
        for (const job of jobs) {
          if (job.attributes?.length) rows.upsertAttributes(job.deviceId, CLIENT_SCOPE, job.attributes);
          if (job.events) for (const event of job.events) rows.insertEvent(event);
        }
        for (const job of jobs) if (job.purge) rows.deleteDeviceState(job.deviceId);
        return values;
      });
      // After the commit: a record never names a series a rollback took back. The PUBACKs wait for it.
      rows.stage(staged);
    } catch (err) {
      rows.forgetSeries();
      this.failed(jobs, callbacks, err as Error);
      return;
    }
    this.committed(jobs, callbacks);
  }

  private commitInWorker(worker: HistoryWorker, jobs: WriteJob[], callbacks: Committed[]): void {
    const { batch, refused } = packBatch(jobs, worker.pairs);
    let packed = jobs;
    let told = callbacks;
    if (refused) {
      packed = [];
      told = [];
      for (let i = 0; i < jobs.length; i++) {
        const err = refused.get(i);
        if (err) this.failed([jobs[i]!], [callbacks[i]!], err);
        else {
          packed.push(jobs[i]!);
          told.push(callbacks[i]!);
        }
      }
      if (packed.length === 0) return;
    }
    worker.commit(batch, (err, packs) => {
      if (err) this.failed(packed, told, err);
      else {
        this.deps.rows.adoptStaged(packs);
        this.committed(packed, told);
      }
      // What gathered during this commit is the next batch (or the rest of a move).
      if (this.jobs.length || this.moveDue) this.flush();
    });
  }

  /**
   * A batch that did not commit. When one message may be why, its halves are committed apart here
   * (on the main thread, also for a batch the worker failed), so only that message fails: about
   * 2·log2(n) small transactions for one faulty message among n, nothing while none is faulty.
   */
  private failed(jobs: WriteJob[], callbacks: Committed[], err: Error): void {
    if (jobs.length > 1 && isMessageFault(err)) {
      const half = jobs.length >>> 1;
      this.commitHere(jobs.slice(0, half), callbacks.slice(0, half));
      this.commitHere(jobs.slice(half), callbacks.slice(half));
      return;
    }
    this.deps.log.error({ err, messages: jobs.length }, jobs.length === 1 ? 'telemetry message failed to commit' : 'telemetry batch failed to commit');
    this.tell(callbacks, err);
  }

  private committed(jobs: readonly WriteJob[], callbacks: readonly Committed[]): void {
    for (const job of jobs) if (job.telemetry) this.staged += job.telemetry.length;
    if (this.options.moveRows > 0 && this.staged >= this.options.moveRows) this.moveDue = true;
    // Live views first: the acknowledgements below let devices send more, which waits behind them.
    this.announce(jobs);
    this.tell(callbacks, null);
  }

  private tell(callbacks: readonly Committed[], err: Error | null): void {
    for (const done of callbacks) {
      try {
        done(err);
      } catch (thrown) {
        this.deps.log.error({ err: thrown }, 'telemetry commit callback failed');
      }
    }
  }

  private announce(jobs: readonly WriteJob[]): void {
    const now = Date.now();
    const stored = new Map<string, { deviceProfileId: string; entries: TelemetryEntry[] }>();
    for (const job of jobs) {
      if (!job.telemetry?.length) continue;
      const entry = stored.get(job.deviceId);
      if (entry) for (const t of job.telemetry) entry.entries.push(t);
      else stored.set(job.deviceId, { deviceProfileId: job.deviceProfileId, entries: job.telemetry.slice() });
    }
    for (const [deviceId, { deviceProfileId, entries }] of stored) this.emit('telemetry.stored', { deviceId, deviceProfileId, entries });
    for (const job of jobs) {
      if (job.purge) continue;
      if (job.attributes?.length) this.emit('attributes.updated', { deviceId: job.deviceId, scope: CLIENT_SCOPE, values: job.attributes });
      if (job.events) {
        for (const e of job.events) {
          this.emit('device.eventReported', {
            deviceId: e.deviceId,
            eventId: e.id,
            ts: e.ts,
            identifier: e.identifier,
            eventType: e.eventType,
            params: e.params,
          });
        }
      }
      this.emit('message.received', { deviceId: job.deviceId, ts: now, bytes: job.bytes });
    }
  }
}
