/**
 * The telemetry writer's schedule (group commit): a message is committed on the next turn of the
 * event loop with whatever arrived in the same turn, not after a fixed window, and no transaction
 * holds more than the configured number of rows. The repository is a recorder here, so each
 * transaction's contents can be seen; the database is a real SQLite one (BEGIN and COMMIT).
 */
import { migrations } from '../../server/app.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../server/lib/event-bus.ts';
import type { TelemetryRepository } from '../../server/modules/telemetry/telemetry-repository.ts';
import { TelemetryWriter, type WriteJob } from '../../server/modules/telemetry/telemetry-writer.ts';

/** Each transaction's telemetry rows, counted per message. */
function recordingWriter(options: { maxRows?: number } = {}) {
  const transactions: number[][] = [];
  // The writer counts and moves staged values (migration 0013), so the tables exist; none are staged here.
  const db = openDatabase(':memory:', migrations);
  const rows = {
    seriesOf(batch: Iterable<WriteJob>) {
      if (!db.isTransaction) throw new Error('seriesOf outside a transaction');
      transactions.push([...batch].map((job) => job.telemetry?.length ?? 0));
      return { series: [] };
    },
    stage() {},
    upsertAttributes() {},
    insertEvent() {},
    deleteDeviceState() {},
    forgetSeries() {},
    forgetDevice() {},
  } as unknown as TelemetryRepository;
  const writer = new TelemetryWriter({ db, bus: new EventBus(), rows, log: pino({ level: 'silent' }), options: { workerFrom: 0, ...options } });
  return { writer, transactions };
}

function message(i: number, values = 2): WriteJob {
  return {
    deviceId: 'd1',
    deviceProfileId: 'p1',
    bytes: 40,
    telemetry: Array.from({ length: values }, (_, k) => ({ ts: 1000 + i, key: `k${k}`, value: i })),
  };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('telemetry group commit', () => {
  it('commits a lone message on the next turn of the event loop instead of waiting for a batch window', async () => {
    const { writer, transactions } = recordingWriter();
    const told: (Error | null)[] = [];
    writer.enqueue(message(1), (err) => told.push(err));
    expect(told).toEqual([]);
    await nextTurn();
    await nextTurn();
    expect(told).toEqual([null]);
    expect(transactions).toEqual([[2]]);
    writer.close();
  });

  it('commits the messages that arrive in the same turn in one transaction', async () => {
    const { writer, transactions } = recordingWriter();
    const done = Array.from({ length: 10 }, (_, i) => new Promise<Error | null>((resolve) => writer.enqueue(message(i), resolve)));
    expect(await Promise.all(done)).toEqual(Array.from({ length: 10 }, () => null));
    expect(transactions).toEqual([Array.from({ length: 10 }, () => 2)]);
    writer.close();
  });

  it('splits a burst into transactions of at most maxRows rows and commits every message', async () => {
    const { writer, transactions } = recordingWriter({ maxRows: 100 });
    const results: Promise<Error | null>[] = [];
    for (let i = 0; i < 1000; i++) results.push(new Promise((resolve) => writer.enqueue(message(i, 3), resolve)));
    expect((await Promise.all(results)).filter((err) => err !== null)).toEqual([]);
    const sizes = transactions.map((t) => t.reduce((a, b) => a + b, 0));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(100);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(3000);
    writer.close();
  });

  it('commits a single message larger than maxRows on its own rather than refusing it', async () => {
    const { writer, transactions } = recordingWriter({ maxRows: 10 });
    const told = await new Promise<Error | null>((resolve) => writer.enqueue(message(1, 25), resolve));
    expect(told).toBeNull();
    expect(transactions).toEqual([[25]]);
    writer.close();
  });
});
