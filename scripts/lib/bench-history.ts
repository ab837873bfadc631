/**
 * History storage figures (docs/PERFORMANCE-FINDINGS.md, "History blocks"), measured in process on a
 * temporary database through the telemetry module's repository and compactor:
 * - bytes on disk per value after compaction (SQLite's dbstat: the pages of ts_block and its index)
 *   for 1 Hz series of the simulator's readings (scripts/lib/simulator-model.ts: one-decimal
 *   temperature and humidity), and for a value that changes every two hours;
 * - a 30-day, 1 Hz, 2-key series of one device: AVG by day, and 50,000 raw values, each answered
 *   as the history route answers (TelemetryService's shape, JSON text).
 * Timestamps are 1 s apart with 0–9 ms of jitter, as arrival times of a device without its own ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase, transaction, type Db } from '../../server/db/sqlite.ts';
import { HistoryCompactor } from '../../server/modules/telemetry/history-compactor.ts';
import { StagingMover } from '../../server/modules/telemetry/staging-mover.ts';
import { TelemetryRepository } from '../../server/modules/telemetry/telemetry-repository.ts';
import type { TelemetryRow } from '../../server/modules/telemetry/telemetry-rows.ts';
import type { RowSpec } from './bench-row.ts';
import { count, median } from './bench-measure.ts';
import { initialWalk, nextReading } from './simulator-model.ts';
import { writePathRows } from './bench-write-path.ts';

const DAY = 86_400_000;
export const START = Date.UTC(2025, 0, 1);
const silent = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {}, trace: () => {}, fatal: () => {}, child: () => silent, level: 'silent' };

/** Seeded, so every run stores the same series. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
}

export interface Store {
  db: Db;
  rows: TelemetryRepository;
  close(): void;
}

/** The app's migrations; loaded once the `.sql` loader is registered (npm run bench runs tsx alone). */
export async function appMigrations(): Promise<readonly { name: string; sql: string }[]> {
  // By URL: the loader is plain JavaScript without type declarations.
  await import(new URL('../../tests/helpers/sql-text-loader.mjs', import.meta.url).href);
  return (await import('../../server/app.ts')).migrations;
}

export let migrations: readonly { name: string; sql: string }[] = [];

export function store(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'edge-bench-history-'));
  const db = openDatabase(join(dir, 'edge.db'), migrations);
  return {
    db,
    rows: new TelemetryRepository(db),
    close: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Stores `seconds` readings of 1 Hz per device from `reading(device, second)`, in batches. */
export function fill(s: Store, devices: number, seconds: number, reading: (device: number, second: number, ts: number) => TelemetryRow[]): number {
  const jitter = seeded(11);
  // Staged values wait in the ring and in memory until moved: move each hour's into blocks, as the
  // writer does every 32,768 values, so that months of data do not all wait in memory.
  const mover = new StagingMover(s.db);
  let values = 0;
  for (let from = 0; from < seconds; from += 3600) {
    transaction(s.db, () => {
      for (let d = 0; d < devices; d++) {
        const telemetry: TelemetryRow[] = [];
        for (let sec = from; sec < Math.min(seconds, from + 3600); sec++) telemetry.push(...reading(d, sec, START + sec * 1000 + Math.floor(jitter() * 10)));
        values += telemetry.length;
        s.rows.insertTelemetry([{ deviceId: `device-${d}`, telemetry }]);
      }
    });
    mover.moveAll();
  }
  return values;
}

function bytesOf(db: Db, names: readonly string[]): number {
  const r = db.prepare(`SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name IN (${names.map(() => '?').join(', ')})`).get(...names) as { bytes: number | null };
  return r.bytes ?? 0;
}

export async function compact(s: Store): Promise<{ ms: number; values: number }> {
  const started = performance.now();
  const result = await new HistoryCompactor({ db: s.db, blocks: s.rows.blocks, log: silent as never, options: { recentMs: 0, everyMs: 0 } }).run(Number.MAX_SAFE_INTEGER);
  return { ms: performance.now() - started, values: result.values };
}

/** Simulator readings: one walk per device. */
export function simulatorReadings(): (device: number, second: number, ts: number) => TelemetryRow[] {
  const random = seeded(5);
  const walks = new Map<number, ReturnType<typeof initialWalk>>();
  return (device, _second, ts) => {
    const state = nextReading(walks.get(device) ?? initialWalk(random), random).state;
    walks.set(device, state);
    return [
      { ts, key: 'temperature', value: state.reading.temperature },
      { ts, key: 'humidity', value: state.reading.humidity },
    ];
  };
}

/** Bytes per value of `values` after compaction, and as rows before it. */
async function compactedSize(s: Store, values: number): Promise<{ before: number; after: number; compactMs: number }> {
  const before = bytesOf(s.db, ['ts_history']) / values;
  const { ms } = await compact(s);
  return { before, after: bytesOf(s.db, ['ts_block', 'ts_block_series']) / values, compactMs: ms };
}

async function sizeRows(): Promise<RowSpec[]> {
  const devices = 10;
  const sensor = store();
  const rare = store();
  try {
    const values = fill(sensor, devices, DAY / 1000, simulatorReadings());
    const size = await compactedSize(sensor, values);
    // A set point that changes every two hours.
    const rareValues = fill(rare, 1, DAY / 1000, (_d, second, ts) => [{ ts, key: 'setpoint', value: 20 + (Math.floor(second / 7200) % 5) / 2 }]);
    const rareSize = await compactedSize(rare, rareValues);
    return [
      {
        id: 'historyBytesPerValue',
        figure: 'history on disk per numeric value after compaction (simulator readings, 1 Hz)',
        value: size.after,
        unit: 'B/value',
        budget: 4,
        note:
          `${count(values)} values (${devices} devices × temperature, humidity × 1 day, one decimal, ts jitter 0–9 ms); ` +
          `${size.before.toFixed(1)} B/value as rows before; compacted in ${(size.compactMs / 1000).toFixed(1)} s (${count(values / (size.compactMs / 1000))} values/s)`,
        detail: { values, rowsBytesPerValue: Number(size.before.toFixed(2)), compactMs: Math.round(size.compactMs) },
      },
      {
        id: 'historyBytesPerRareValue',
        figure: 'history on disk per value after compaction (a value that changes every 2 h, 1 Hz)',
        value: rareSize.after,
        unit: 'B/value',
        budget: 1,
        note: `${count(rareValues)} values, ts jitter 0–9 ms (the timestamps are most of it); ${rareSize.before.toFixed(1)} B/value as rows before`,
      },
    ];
  } finally {
    sensor.close();
    rare.close();
  }
}

/** Median of `runs` timings of `fn` (ms), and its last result. */
function timed<T>(runs: number, fn: () => T): { ms: number; value: T } {
  const ms: number[] = [];
  let value: T | undefined;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    value = fn();
    ms.push(performance.now() - started);
  }
  return { ms: median(ms), value: value! };
}

async function queryRows(): Promise<RowSpec[]> {
  const days = 30;
  const s = store();
  try {
    const values = fill(s, 1, (days * DAY) / 1000, simulatorReadings());
    const { ms: compactMs } = await compact(s);
    const end = START + days * DAY;
    const avg = timed(5, () =>
      JSON.stringify(
        ['temperature', 'humidity'].map((k) => s.rows.aggregate('device-0', k, { startTs: START, endTs: end, interval: DAY }, 'AVG', 50_000, 'ASC')),
      ),
    );
    // Starting mid-block and mid-day, so block edges are decoded too.
    const from = START + 12 * DAY + 4321_000;
    const raw = timed(5, () => JSON.stringify(s.rows.history('device-0', 'temperature', from, end, 50_000, 'ASC').map((p) => ({ ts: p.ts, value: p.value }))));
    return [
      {
        id: 'historyAvgByDay30d',
        figure: 'AVG by day over 30 days of a 1 Hz, 2-key series (compacted)',
        value: avg.ms,
        unit: 'ms',
        budget: 100,
        note: `${count(values)} values compacted in ${(compactMs / 1000).toFixed(0)} s; median of 5, repository call and JSON text, both keys`,
      },
      {
        id: 'historyRaw50k',
        figure: '50,000 raw history values of a compacted series',
        value: raw.ms,
        unit: 'ms',
        budget: 300,
        note: 'median of 5, repository call and JSON text, from mid-block',
      },
    ];
  } finally {
    s.close();
  }
}

/** Loads the app's migrations for `store()` (the report group's bench stores history the same way). */
export async function loadMigrations(): Promise<void> {
  migrations = await appMigrations();
}

export async function historyRows(): Promise<RowSpec[]> {
  await loadMigrations();
  return [...(await sizeRows()), ...(await queryRows()), ...writePathRows(migrations)];
}
