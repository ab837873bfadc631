/**
 * Compaction merges small blocks (what staged values become at each move) and moves rows (history
 * from before staged values became blocks) into blocks, one transaction per step: a process killed
 * with SIGKILL in the middle of it leaves a database that passes PRAGMA integrity_check and holds
 * every value exactly once, and compaction resumes where it stopped.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../server/app.ts';
import { openDatabase, transaction } from '../../server/db/sqlite.ts';
import { StagingMover } from '../../server/modules/telemetry/staging-mover.ts';
import { StagingStore } from '../../server/modules/telemetry/staging-store.ts';
import { TelemetryRepository } from '../../server/modules/telemetry/telemetry-repository.ts';
import type { TelemetryRow } from '../../server/modules/telemetry/telemetry-rows.ts';
import { tempDir } from '../helpers/app.ts';
import { runStorageChild } from '../helpers/storage-child.ts';

const KEYS = ['temperature', 'state', 'flagged'];
const PER_KEY = 20_000;

function valueOf(key: string, i: number): TelemetryRow {
  const ts = 1_700_000_000_000 + i * 5000;
  if (key === 'state') return { ts, key, value: i % 9 === 0 ? 'alarm' : 'ok' };
  if (key === 'flagged') return { ts, key, value: i / 4, ...(i % 3 === 0 ? { flag: 'flagged: above the maximum' } : {}) };
  // + 0: SQLite keeps no -0 in a row.
  return { ts, key, value: Math.round(Math.sin(i / 50) * 300) / 10 + 0 };
}


function readAll(file: string): { integrity: string; blocks: number; values: Record<string, unknown[]> } {
  const db = openDatabase(file, migrations);
  try {
    const rows = new TelemetryRepository(db);
    const integrity = (db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check;
    const blocks = (db.prepare('SELECT COUNT(*) AS n FROM ts_block').get() as { n: number }).n;
    const values = Object.fromEntries(KEYS.map((k) => [k, rows.history('dev-1', k, 0, Number.MAX_SAFE_INTEGER, 100_000, 'ASC').map((p) => [p.ts, p.value, p.flag])]));
    return { integrity, blocks, values };
  } finally {
    db.close();
  }
}

function blockCount(db: ReturnType<typeof openDatabase>): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM ts_block').get() as { n: number }).n;
}

describe('history compaction and a hard kill', () => {
  it('loses and doubles no value when the compacting process is killed mid-way, and resumes afterwards', { timeout: 120_000 }, async () => {
    const file = join(tempDir(), 'edge.db');
    const db = openDatabase(file, migrations);
    const repository = new TelemetryRepository(db);
    transaction(db, () => {
      const telemetry = KEYS.flatMap((k) => Array.from({ length: PER_KEY }, (_, i) => valueOf(k, i)));
      // Commits of 250 values each: a move takes whole commits (staging-pack.ts).
      for (let i = 0; i < telemetry.length; i += 250) repository.insertTelemetry([{ deviceId: 'dev-1', telemetry: telemetry.slice(i, i + 250) }]);
      // 'state' as rows of ts_history, as the staging move wrote them before blocks.
      const state = (db.prepare("SELECT id FROM ts_latest WHERE device_id = 'dev-1' AND key = 'state'").get() as { id: number }).id;
      const staging = new StagingStore(db);
      const insert = db.prepare('INSERT INTO ts_history (series_id, ts, value_type, num_value, text_value, flag) VALUES (?, ?, ?, ?, ?, ?)');
      for (const r of staging.all()) if (r[0] === state) insert.run(...r);
      staging.forget(new Set([state]));
    });
    // The others as small blocks: many small moves, as a writer that moves often makes them.
    const mover = new StagingMover(db);
    while (mover.move(250).moved > 0);
    const smallBlocks = blockCount(db);
    expect(smallBlocks).toBeGreaterThan(150);
    db.close();
    const expected = Object.fromEntries(KEYS.map((k) => [k, Array.from({ length: PER_KEY }, (_, i) => valueOf(k, i)).map((v) => [v.ts, v.value, v.flag ?? null])]));

    const killed = await runStorageChild('compaction-child.ts', [file], 'compacting');
    expect(killed).not.toContain('done');
    const afterKill = readAll(file);
    expect(afterKill.integrity).toBe('ok');
    expect(afterKill.blocks).toBeGreaterThan(0);
    expect(afterKill.values).toEqual(expected);

    expect(await runStorageChild('compaction-child.ts', [file], null)).toContain('done');
    const finished = readAll(file);
    expect(finished.integrity).toBe('ok');
    expect(finished.values).toEqual(expected);
    const check = openDatabase(file, migrations);
    expect((check.prepare('SELECT COUNT(*) AS n FROM ts_history').get() as { n: number }).n).toBe(0);
    // 2 × 20,000 values in blocks of 2,000 at most, within a UTC day, and 'state' in blocks too.
    expect(blockCount(check)).toBeLessThan(40);
    check.close();
  });
});
