/**
 * Disk written per 2-value message by the history write path alone, at a fixed number of messages
 * per commit (docs/PERFORMANCE-FINDINGS.md, "Group commit, durability and what a message writes to disk"):
 * 50 devices × 2 keys committed into the staging table through the telemetry repository, a move
 * into blocks every 32,768 staged values as the writer does (staging-mover.ts), in process on a
 * temporary database with the gateway's pragmas. /proc/self/io write_bytes over 300,000 messages
 * after 100,000 of warm-up, so WAL frames and checkpoints are counted. The gateway's own figure
 * (bench-telemetry.ts) depends on the batch sizes the machine's load makes; this one does not, so
 * it compares layouts and settings exactly.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, transaction } from '../../server/db/sqlite.ts';
import { StagingMover } from '../../server/modules/telemetry/staging-mover.ts';
import { TelemetryRepository } from '../../server/modules/telemetry/telemetry-repository.ts';
import type { BatchJob } from '../../server/modules/telemetry/history-worker.ts';
import type { RowSpec } from './bench-row.ts';
import { writeBytesOf } from './bench-measure.ts';

const DEVICES = 50;
const MOVE_AT = 32_768;
const WARMUP = 100_000;
const MEASURED = 300_000;

/** Bytes per message, and of them the moves', at `perCommit` messages per commit. */
function bytesPerMessage(migrations: readonly { name: string; sql: string }[], perCommit: number): { total: number; moves: number } {
  const dir = mkdtempSync(join(tmpdir(), 'edge-bench-write-'));
  const db = openDatabase(join(dir, 'edge.db'), migrations);
  try {
    const rows = new TelemetryRepository(db);
    const mover = new StagingMover(db);
    let ts = Date.UTC(2025, 0, 1);
    let staged = 0;
    let moveBytes = 0;
    const run = (messages: number): void => {
      for (let done = 0; done < messages; done += perCommit) {
        const jobs: BatchJob[] = [];
        for (let i = 0; i < perCommit; i++) {
          const d = i % DEVICES;
          if (d === 0) ts += 1000;
          const t = 20 + ((i * 7 + done) % 150) / 10;
          jobs.push({ deviceId: `dev-${d}`, telemetry: [{ ts, key: 'temperature', value: t }, { ts, key: 'humidity', value: t * 2 }] });
        }
        transaction(db, () => rows.insertTelemetry(jobs));
        staged += perCommit * 2;
        if (staged >= MOVE_AT) {
          const before = writeBytesOf(process.pid);
          mover.move();
          moveBytes += writeBytesOf(process.pid) - before;
          staged = 0;
        }
      }
    };
    run(WARMUP);
    moveBytes = 0;
    const start = writeBytesOf(process.pid);
    run(MEASURED);
    return { total: (writeBytesOf(process.pid) - start) / MEASURED, moves: moveBytes / MEASURED };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function writePathRows(migrations: readonly { name: string; sql: string }[]): RowSpec[] {
  const big = bytesPerMessage(migrations, 2000);
  const small = bytesPerMessage(migrations, 500);
  return [
    {
      id: 'writePathBytesPerMsg',
      figure: 'disk written per 2-value message, write path alone, 2,000 messages per commit (B)',
      value: big.total,
      unit: 'B',
      budget: 150,
      note:
        `${DEVICES} devices × 2 keys staged through the repository, a move into blocks every ${MOVE_AT.toLocaleString('en-US')} values, /proc/self/io write_bytes over ${MEASURED.toLocaleString('en-US')} messages (WAL and checkpoints); ` +
        `of it the moves ${big.moves.toFixed(1)} B; at 500 messages per commit ${small.total.toFixed(0)} B (moves ${small.moves.toFixed(1)} B)`,
      detail: { perCommit2000: big.total, moves2000: big.moves, perCommit500: small.total, moves500: small.moves },
    },
  ];
}
