/**
 * The cloud link's durable progress (`cloud_progress`, migration 0036): the device-event cursor,
 * the edge state's counters (sent today, dropped) and its connect/disconnect times. Acknowledgements
 * come by the thousand: changes are written once per turn of the event loop, in one transaction
 * with the telemetry cursors (the `Flushed` parts), so they cost no commit of their own.
 */
import type { StatementSync } from 'node:sqlite';
import { unsynced, type Db } from '../../db/sqlite.ts';
import type { FastifyBaseLogger } from 'fastify';

/** Something else written in the same transaction (the telemetry cursors). */
export interface Flushed {
  /** Runs inside the transaction. */
  write(): void;
  /** The transaction committed: what `write` wrote is durable. */
  committed(): void;
}

interface Row {
  event_seq: number;
  sent_day: string;
  sent_today: number;
  dropped: number;
  last_connect_time: number | null;
  last_disconnect_time: number | null;
}

/** The local day, as the row stores it: "sent today" starts at local midnight. */
export function localDay(at = new Date()): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

export class CloudProgress {
  eventSeq: number;
  dropped: number;
  lastConnectTime: number | null;
  lastDisconnectTime: number | null;
  private sentDay: string;
  private sent: number;
  private readonly parts: Flushed[] = [];
  private readonly update: StatementSync;
  private flushing = false;
  private dirty = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {
    const row = db.prepare('SELECT * FROM cloud_progress WHERE id = 1').get() as Row | undefined;
    this.eventSeq = row?.event_seq ?? 0;
    this.dropped = row?.dropped ?? 0;
    this.sentDay = row?.sent_day ?? localDay();
    this.sent = row?.sent_today ?? 0;
    this.lastConnectTime = row?.last_connect_time ?? null;
    this.lastDisconnectTime = row?.last_disconnect_time ?? null;
    this.update = db.prepare(
      `INSERT INTO cloud_progress (id, event_seq, sent_day, sent_today, dropped, last_connect_time, last_disconnect_time) VALUES (1, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET event_seq = excluded.event_seq, sent_day = excluded.sent_day, sent_today = excluded.sent_today,
         dropped = excluded.dropped, last_connect_time = excluded.last_connect_time, last_disconnect_time = excluded.last_disconnect_time`,
    );
  }

  /** Messages the cloud acknowledged since local midnight. */
  get sentToday(): number {
    this.rollDay();
    return this.sent;
  }

  join(part: Flushed): void {
    this.parts.push(part);
  }

  countSent(n: number): void {
    this.rollDay();
    this.sent += n;
    this.changed();
  }

  countDropped(n: number): void {
    this.dropped += n;
    this.changed();
  }

  /** The cloud acknowledged the device events up to this event_record seq (or is owed none before it). */
  eventsAcked(seq: number): void {
    this.eventSeq = seq;
    this.changed();
  }

  times(connect: number | null, disconnect: number | null): void {
    if (connect === this.lastConnectTime && disconnect === this.lastDisconnectTime) return;
    this.lastConnectTime = connect;
    this.lastDisconnectTime = disconnect;
    this.changed();
  }

  /** Something changed (here or in a joined part): written on the next turn. */
  changed(): void {
    this.dirty = true;
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => this.flush());
  }

  flush(): void {
    this.flushing = false;
    if (!this.dirty) return;
    try {
      // Not synced at its commit: a position lost to a power cut sends again what the cloud had
      // (at least once, never lost), and the next telemetry commit (synchronous FULL) syncs the WAL
      // within milliseconds anyway. A live gateway writes this row at every PUBACK.
      unsynced(this.db, () => {
        for (const part of this.parts) part.write();
        this.update.run(this.eventSeq, this.sentDay, this.sent, this.dropped, this.lastConnectTime, this.lastDisconnectTime);
      });
      this.dirty = false;
      for (const part of this.parts) part.committed();
    } catch (err) {
      this.log.error({ err }, 'cloud link progress not stored');
    }
  }

  private rollDay(): void {
    const today = localDay();
    if (today !== this.sentDay) {
      this.sentDay = today;
      this.sent = 0;
    }
  }
}
