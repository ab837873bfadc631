/**
 * Staged history values (migration 0014) move into history blocks oldest first, a chunk per
 * transaction: a process killed with SIGKILL while it moves them leaves a database that passes
 * PRAGMA integrity_check and holds every value exactly once, staged or in a block (what is still
 * staged is what arrived after everything moved), a repeated ts answered with its last write (the
 * repeats arrive last, so their move rewrites blocks already made); the next move finishes the job.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../server/app.ts';
import { openDatabase, transaction } from '../../server/db/sqlite.ts';
import { TelemetryRepository } from '../../server/modules/telemetry/telemetry-repository.ts';
import type { TelemetryRow } from '../../server/modules/telemetry/telemetry-rows.ts';
import { tempDir } from '../helpers/app.ts';
import { runStorageChild } from '../helpers/storage-child.ts';

const KEYS = ['temperature', 'state', 'flagged'];
const PER_KEY = 100_000;
/** Every REPEAT-th value arrives again later with another value: the later one must win. */
const REPEAT = 10;

function valueOf(key: string, i: number, again = false): TelemetryRow {
  const ts = 1_700_000_000_000 + i * 1000;
  if (key === 'state') return { ts, key, value: again ? 'again' : i % 9 === 0 ? 'alarm' : 'ok' };
  if (key === 'flagged') return { ts, key, value: again ? -i - 1 : i / 4, ...(i % 3 === 0 ? { flag: 'flagged: above the maximum' } : {}) };
  return { ts, key, value: again ? 1000 + i : (i % 500) / 10 };
}

function expectedOf(key: string): unknown[] {
  return Array.from({ length: PER_KEY }, (_, i) => valueOf(key, i, i % REPEAT === 0)).map((v) => [v.ts, v.value, v.flag ?? null]);
}


function readAll(file: string): { integrity: string; staged: number; firstStaged: number | null; rows: number; blockValues: number; values: Record<string, unknown[]> } {
  const db = openDatabase(file, migrations);
  try {
    const repository = new TelemetryRepository(db);
    const integrity = (db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check;
    const { n: staged, first: firstStaged } = db.prepare('SELECT COUNT(*) AS n, MIN(id) AS first FROM ts_staging').get() as { n: number; first: number | null };
    const { n: rows } = db.prepare('SELECT COUNT(*) AS n FROM ts_history').get() as { n: number };
    const { n: blockValues } = db.prepare('SELECT COALESCE(SUM(count), 0) AS n FROM ts_block').get() as { n: number };
    const values = Object.fromEntries(
      KEYS.map((k) => [k, repository.history('dev-1', k, 0, Number.MAX_SAFE_INTEGER, PER_KEY * 2, 'ASC').map((p) => [p.ts, p.value, p.flag])]),
    );
    return { integrity, staged, firstStaged, rows, blockValues, values };
  } finally {
    db.close();
  }
}

describe('moving staged history and a hard kill', () => {
  it('loses and doubles no value when the moving process is killed, and the next move completes it', { timeout: 120_000 }, async () => {
    const file = join(tempDir(), 'edge.db');
    const db = openDatabase(file, migrations);
    const repository = new TelemetryRepository(db);
    const repeated = KEYS.flatMap((k) => Array.from({ length: PER_KEY / REPEAT }, (_, n) => valueOf(k, n * REPEAT, true)));
    transaction(db, () => {
      repository.insertTelemetry([{ deviceId: 'dev-1', telemetry: KEYS.flatMap((k) => Array.from({ length: PER_KEY }, (_, i) => valueOf(k, i))) }]);
      repository.insertTelemetry([{ deviceId: 'dev-1', telemetry: repeated }]);
    });
    db.close();
    const expected = Object.fromEntries(KEYS.map((k) => [k, expectedOf(k)]));
    const stagedAll = KEYS.length * PER_KEY + repeated.length;

    const killed = await runStorageChild('staging-move-child.ts', [file], 'moving');
    expect(killed).not.toContain('done');
    const afterKill = readAll(file);
    expect(afterKill.integrity).toBe('ok');
    // Ids count from 1 in arrival order; every value before the first still staged was moved, the
    // repeats (the last ids) onto values already moved.
    expect(afterKill.staged).toBeGreaterThan(0);
    const movedCount = afterKill.firstStaged! - 1;
    expect(movedCount).toBeGreaterThan(0);
    expect(afterKill.staged).toBe(stagedAll - movedCount);
    expect(afterKill.rows).toBe(0);
    expect(afterKill.blockValues).toBe(Math.min(movedCount, KEYS.length * PER_KEY));
    expect(afterKill.values).toEqual(expected);

    expect(await runStorageChild('staging-move-child.ts', [file], null)).toContain('done');
    const finished = readAll(file);
    expect(finished.integrity).toBe('ok');
    expect(finished.staged).toBe(0);
    expect(finished.rows).toBe(0);
    expect(finished.blockValues).toBe(KEYS.length * PER_KEY);
    expect(finished.values).toEqual(expected);
  });
});
