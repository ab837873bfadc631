/** SQL for `message_stat`: device messages counted per minute (id = the minute's start, epoch ms). */
import type { StatementSync } from 'node:sqlite';
import type { Db } from '../../db/sqlite.ts';

export class MessageStatRepository {
  private readonly addStatement: StatementSync;

  constructor(private readonly db: Db) {
    this.addStatement = db.prepare(
      `INSERT INTO message_stat (id, count, bytes) VALUES (?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET count = count + excluded.count, bytes = bytes + excluded.bytes`,
    );
  }

  /** Adds counts to their minutes; the caller holds the transaction. */
  add(minute: number, count: number, bytes: number): void {
    this.addStatement.run(minute, count, bytes);
  }

  /** Messages in [from, to). */
  countBetween(from: number, to: number): number {
    const row = this.db.prepare('SELECT COALESCE(SUM(count), 0) AS n FROM message_stat WHERE id >= ? AND id < ?').get(from, to) as { n: number };
    return row.n;
  }

  total(): number {
    return (this.db.prepare('SELECT COALESCE(SUM(count), 0) AS n FROM message_stat').get() as { n: number }).n;
  }

  /**
   * Counts in [from, to) grouped into buckets of `intervalMs` whose boundaries sit at multiples of
   * the interval shifted by `offsetMs` (the local time zone's offset): bucket start → count.
   */
  buckets(from: number, to: number, intervalMs: number, offsetMs: number): Map<number, number> {
    // node:sqlite binds JS numbers as REAL: the CAST makes the division an integer one.
    const rows = this.db
      .prepare(
        `SELECT CAST((id + ?) / ? AS INTEGER) AS bucket, SUM(count) AS n FROM message_stat
         WHERE id >= ? AND id < ? GROUP BY bucket`,
      )
      .all(offsetMs, intervalMs, from, to) as { bucket: number; n: number }[];
    return new Map(rows.map((r) => [r.bucket * intervalMs - offsetMs, r.n]));
  }
}
