/**
 * Counts `message.received` events per minute. Messages arrive at tens of thousands a second, so
 * counts collect in memory and reach `message_stat` in one small transaction every few seconds
 * (and before any read, so answers include the last messages).
 */
import { transaction, type Db } from '../../db/sqlite.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { MessageStatRepository } from './message-stat-repository.ts';

const MINUTE_MS = 60_000;
const FLUSH_EVERY_MS = 5_000;

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
    this.pending.clear();
    transaction(this.db, () => {
      for (const [minute, [count, bytes]] of entries) this.rows.add(minute, count, bytes);
    });
  }

  /** Every message counted since the first start. */
  total(): number {
    return this.runningTotal;
  }

  countBetween(from: number, to: number): number {
    this.flush();
    return this.rows.countBetween(from, to);
  }

  buckets(from: number, to: number, intervalMs: number, offsetMs: number): Map<number, number> {
    this.flush();
    return this.rows.buckets(from, to, intervalMs, offsetMs);
  }

  close(): void {
    this.unsubscribe();
    this.flush();
  }
}
