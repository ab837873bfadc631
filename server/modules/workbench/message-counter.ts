/**
 * Counts `message.received` events per minute. Messages arrive at tens of thousands a second, so
 * counts collect in memory and reach `message_stat` in one small transaction a minute
 * (and before any read, so answers include the last messages).
 */
import { transaction, type Db } from '../../db/sqlite.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { MessageStatRepository } from './message-stat-repository.ts';

const MINUTE_MS = 60_000;
// A minute: each flush is a synced commit of its own (two or three 4 KB pages on flash), and a
// power cut losing a minute of message statistics loses no device data.
const FLUSH_EVERY_MS = 60_000;

export class MessageCounter {
  private readonly rows: MessageStatRepository;
  /** Minute start → [count, bytes] not yet written. */
  private readonly pending = new Map<number, [number, number]>();
  private runningTotal: number;
  private timer: NodeJS.Timeout | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly db: Db,
    bus: EventBus,
  ) {
    this.rows = new MessageStatRepository(db);
    this.runningTotal = this.rows.total();
    this.unsubscribe = bus.on('message.received', ({ ts, bytes }) => this.count(ts, bytes));
  }

  private count(ts: number, bytes: number): void {
    const minute = Math.floor(ts / MINUTE_MS) * MINUTE_MS;
    const entry = this.pending.get(minute);
    if (entry) {
      entry[0] += 1;
      entry[1] += bytes;
    } else {
      this.pending.set(minute, [1, bytes]);
    }
    this.runningTotal += 1;
    // Unref'd: pending counts never keep the process alive; close() writes them.
    this.timer ??= setTimeout(() => this.flush(), FLUSH_EVERY_MS).unref();
  }

  /** Writes pending counts. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return;
    const entries = [...this.pending];
    transaction(this.db, () => {
      for (const [minute, [count, bytes]] of entries) this.rows.add(minute, count, bytes);
    });
    // Cleared only once written: on a full disk the counts wait in memory for the next flush.
    this.pending.clear();
  }

  /**
   * Writes pending counts when it can; a read of the counts must not fail for want of disk space
   * (the console keeps reading on a full disk): what could not be written is added from memory.
   */
  private flushForRead(): void {
    try {
      this.flush();
    } catch {
      // The pending counts stay; the reads below add them.
    }
  }

  /** Every message counted since the first start. */
  total(): number {
    return this.runningTotal;
  }

  countBetween(from: number, to: number): number {
    this.flushForRead();
    let n = this.rows.countBetween(from, to);
    for (const [minute, [count]] of this.pending) if (minute >= from && minute < to) n += count;
    return n;
  }

  buckets(from: number, to: number, intervalMs: number, offsetMs: number): Map<number, number> {
    this.flushForRead();
    const buckets = this.rows.buckets(from, to, intervalMs, offsetMs);
    for (const [minute, [count]] of this.pending) {
      if (minute < from || minute >= to) continue;
      const bucket = Math.floor((minute + offsetMs) / intervalMs) * intervalMs - offsetMs;
      buckets.set(bucket, (buckets.get(bucket) ?? 0) + count);
    }
    return buckets;
  }

  close(): void {
    this.unsubscribe();
    this.flush();
  }
}
