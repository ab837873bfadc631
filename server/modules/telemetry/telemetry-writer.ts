/**
 * The batched writer: device messages queue here and are committed together, one transaction per
 * batch, when `maxBatch` messages wait or `maxDelayMs` after the first one came. A message's promise
 * settles only after its batch is committed, which is what lets the broker hold a QoS 1 PUBACK
 * until the data is on disk (DESIGN.md section 5). After the commit it announces
 * `telemetry.stored` (one per device and batch), `device.eventReported` and `message.received`.
 */
import type { FastifyBaseLogger } from 'fastify';
import { transaction, type Db } from '../../db/sqlite.ts';
import { announcer, type Announce } from '../../lib/announce.ts';
import type { EventBus, TelemetryEntry } from '../../lib/event-bus.ts';
import { CLIENT_SCOPE, type AttributeRow, type DeviceTelemetry, type EventRecordRow, type TelemetryRepository, type TelemetryRow } from './telemetry-repository.ts';

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

export interface WriterOptions {
  maxBatch: number;
  maxDelayMs: number;
}

export const defaultWriterOptions: WriterOptions = { maxBatch: 500, maxDelayMs: 20 };

interface Pending {
  job: WriteJob;
  resolve: () => void;
  reject: (err: Error) => void;
}

export interface TelemetryWriterDeps {
  db: Db;
  bus: EventBus;
  rows: TelemetryRepository;
  log: FastifyBaseLogger;
  options?: Partial<WriterOptions>;
}

function* telemetryOf(batch: readonly Pending[]): Generator<DeviceTelemetry> {
  for (const { job } of batch) if (job.telemetry?.length) yield { deviceId: job.deviceId, rows: job.telemetry };
}

export class TelemetryWriter {
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private closed = false;
  private readonly options: WriterOptions;
  /** A listener's failure must not undo a commit nor keep the others from hearing of it. */
  private readonly emit: Announce;

  constructor(private readonly deps: TelemetryWriterDeps) {
    this.options = { ...defaultWriterOptions, ...deps.options };
    this.emit = announcer(deps.bus, deps.log);
  }

  /** Queues `job`; resolves once its batch is committed, rejects when the commit failed. */
  write(job: WriteJob): Promise<void> {
    if (this.closed) return Promise.reject(new Error('telemetry writer closed'));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      if (this.queue.length >= this.options.maxBatch) {
        // Let the rest of this socket read queue up behind it, then commit them together.
        this.immediate ??= setImmediate(() => this.flush());
      } else {
        this.timer ??= setTimeout(() => this.flush(), this.options.maxDelayMs);
      }
    });
  }

  /** Commits everything queued now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const { db, rows } = this.deps;
    try {
      transaction(db, () => {
        rows.insertTelemetry(telemetryOf(batch));
        for (const { job } of batch) {
          if (job.attributes?.length) rows.upsertAttributes(job.deviceId, CLIENT_SCOPE, job.attributes);
          for (const event of job.events ?? []) rows.insertEvent(event);
        }
      });
    } catch (err) {
      rows.forgetSeries();
      this.deps.log.error({ err, messages: batch.length }, 'telemetry batch failed to commit');
      for (const p of batch) p.reject(err as Error);
      return;
    }
    for (const p of batch) p.resolve();
    this.announce(batch.map((p) => p.job));
  }

  /** Commits what is queued and refuses further writes. */
  close(): void {
    this.flush();
    this.closed = true;
  }

  private announce(jobs: WriteJob[]): void {
    const now = Date.now();
    const stored = new Map<string, { deviceProfileId: string; entries: TelemetryEntry[] }>();
    for (const job of jobs) {
      if (!job.telemetry?.length) continue;
      const entry = stored.get(job.deviceId) ?? { deviceProfileId: job.deviceProfileId, entries: [] };
      for (const t of job.telemetry) entry.entries.push(t.flag ? { ts: t.ts, key: t.key, value: t.value, flag: t.flag } : { ts: t.ts, key: t.key, value: t.value });
      stored.set(job.deviceId, entry);
    }
    for (const [deviceId, { deviceProfileId, entries }] of stored) this.emit('telemetry.stored', { deviceId, deviceProfileId, entries });
    for (const job of jobs) {
      for (const e of job.events ?? []) {
        this.emit('device.eventReported', {
          deviceId: e.deviceId,
          eventId: e.id,
          ts: e.ts,
          identifier: e.identifier,
          eventType: e.eventType,
          params: e.params,
        });
      }
      this.emit('message.received', { deviceId: job.deviceId, ts: now, bytes: job.bytes });
    }
  }
}
