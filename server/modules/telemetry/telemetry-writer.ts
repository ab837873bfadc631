/**
 * The batched writer: device messages queue here and are committed together, one transaction per
 * batch, when `maxBatch` messages wait or `maxDelayMs` after the first one came. A message's
 * callback runs only after its batch is committed, which is what lets the broker hold a QoS 1
 * PUBACK until the data is on disk (DESIGN.md section 5). After the commit it announces
 * `telemetry.stored` (one per device and batch), `device.eventReported` and `message.received`.
 *
 * Tens of thousands of messages a second pass through here, so the queue holds plain callbacks
 * (no promise per message on the MQTT path) and the stored rows travel on to the announcements as
 * they are.
 */
import type { FastifyBaseLogger } from 'fastify';
import { transaction, type Db } from '../../db/sqlite.ts';
import { announcer, type Announce } from '../../lib/announce.ts';
import type { EventBus, TelemetryEntry } from '../../lib/event-bus.ts';
import { CLIENT_SCOPE, type AttributeRow, type EventRecordRow, type TelemetryRepository, type TelemetryRow } from './telemetry-repository.ts';

/** One device message, whatever it carries. */
export interface WriteJob {
  deviceId: string;
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
  maxBatch: number;
  maxDelayMs: number;
}

export const defaultWriterOptions: WriterOptions = { maxBatch: 500, maxDelayMs: 20 };

export interface TelemetryWriterDeps {
  db: Db;
  bus: EventBus;
  rows: TelemetryRepository;
  log: FastifyBaseLogger;
  options?: Partial<WriterOptions>;
}

/** `enqueue` as a promise, for callers that await. */
export function committed(enqueue: (done: Committed) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => enqueue((err) => (err ? reject(err) : resolve())));
}

export class TelemetryWriter {
  private jobs: WriteJob[] = [];
  private callbacks: Committed[] = [];
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private closed = false;
  private readonly options: WriterOptions;
  /** A listener's failure must not undo a commit nor keep the others from hearing of it. */
  private readonly emit: Announce;
  private readonly flushNow = (): void => this.flush();

  constructor(private readonly deps: TelemetryWriterDeps) {
    this.options = { ...defaultWriterOptions, ...deps.options };
    this.emit = announcer(deps.bus, deps.log);
  }

  /** Queues `job`; `done` runs once its batch is committed, or with the error when the commit failed. */
  enqueue(job: WriteJob, done: Committed): void {
    if (this.closed) {
      queueMicrotask(() => done(new Error('telemetry writer closed')));
      return;
    }
    this.jobs.push(job);
    this.callbacks.push(done);
    if (this.jobs.length >= this.options.maxBatch) {
      // Let the rest of this socket read queue up behind it, then commit them together.
      this.immediate ??= setImmediate(this.flushNow);
    } else {
      this.timer ??= setTimeout(this.flushNow, this.options.maxDelayMs);
    }
  }

  /** Queues `job`; resolves once its batch is committed, rejects when the commit failed. */
  write(job: WriteJob): Promise<void> {
    return committed((done) => this.enqueue(job, done));
  }

  /** Commits everything queued now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    const jobs = this.jobs;
    const callbacks = this.callbacks;
    if (jobs.length === 0) return;
    this.jobs = [];
    this.callbacks = [];
    const { db, rows } = this.deps;
    try {
      transaction(db, () => {
        rows.insertTelemetry(jobs);
        for (const job of jobs) {
          if (job.attributes?.length) rows.upsertAttributes(job.deviceId, CLIENT_SCOPE, job.attributes);
          if (job.events) for (const event of job.events) rows.insertEvent(event);
        }
      });
    } catch (err) {
      rows.forgetSeries();
      this.deps.log.error({ err, messages: jobs.length }, 'telemetry batch failed to commit');
      this.tell(callbacks, err as Error);
      return;
    }
    // Live views first: the acknowledgements below let devices send more, which waits behind them.
    this.announce(jobs);
    this.tell(callbacks, null);
  }

  /** Commits what is queued and refuses further writes. */
  close(): void {
    this.flush();
    this.closed = true;
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
