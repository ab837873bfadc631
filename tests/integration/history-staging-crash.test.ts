/**
 * Staged history values (migration 0014) move into history blocks oldest first, a chunk per
 * transaction: a process killed with SIGKILL while it moves them leaves a database that passes
 * PRAGMA integrity_check and holds every value exactly once, staged or in a block (what is still
 * staged is what arrived after everything moved), a repeated ts answered with its last write (the
 * repeats arrive last, so their move rewrites blocks already made); the next move finishes the job.
 * The database was staged by three binaries: values the oldest staged one row each (migration
 * 0014), then values the next staged as one row per commit (migration 0047), then the rest as one
 * record per commit of the staging ring: all move, the oldest first.
 *
 * The ring (staging-log.ts) on its own: a process staging one value per commit, moving now and
 * then, so that the ring wraps around several times, is killed mid-stream: after a restart every
 * value it acknowledged is there exactly once, staged or in a block.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../server/app.ts';
import { openDatabase, transaction } from '../../server/db/sqlite.ts';
import { STAGING_PAGE } from '../../server/modules/telemetry/staging-log.ts';
import { TelemetryRepository } from '../../server/modules/telemetry/telemetry-repository.ts';
import type { TelemetryRow } from '../../server/modules/telemetry/telemetry-rows.ts';
import { encodeValue } from '../../server/modules/telemetry/stored-value.ts';
import { encodeStagedPack, pushStagedRecord, stagedColumns } from '../../server/modules/telemetry/staging-pack.ts';
import { tempDir } from '../helpers/app.ts';
import { stagedCount } from '../helpers/stored-history.ts';
import { runStorageChild } from '../helpers/storage-child.ts';

const KEYS = ['temperature', 'state', 'flagged'];
const PER_KEY = 100_000;
/** The first values of each key, staged by a binary before migration 0047. */
const LEGACY_PER_KEY = 30_000;
/** The values up to this one of each key, after the first, staged by a binary before migration 0048 (one pack row per commit). */
const PACKED_PER_KEY = 50_000;
/** Values per commit of the binary after the update. */
const COMMIT = 3000;
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


function readAll(file: string): { integrity: string; staged: number; rows: number; blockValues: number; values: Record<string, unknown[]> } {
  const db = openDatabase(file, migrations);
  try {
    const repository = new TelemetryRepository(db);
    const integrity = (db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check;
    const staged = stagedCount(db);
    const { n: rows } = db.prepare('SELECT COUNT(*) AS n FROM ts_history').get() as { n: number };
    const { n: blockValues } = db.prepare('SELECT COALESCE(SUM(count), 0) AS n FROM ts_block').get() as { n: number };
    const values = Object.fromEntries(
      KEYS.map((k) => [k, repository.history('dev-1', k, 0, Number.MAX_SAFE_INTEGER, PER_KEY * 2, 'ASC').map((p) => [p.ts, p.value, p.flag])]),
    );
    return { integrity, staged, rows, blockValues, values };
  } finally {
    db.close();
  }
}

/** A database as a binary before migration 0047 left it: the first values of each key staged one row each. */
function stageAsOlderBinary(file: string): void {
  const db = openDatabase(file, migrations.filter((m) => m.name !== '0047-telemetry-staging-pack'));
  try {
    transaction(db, () => {
      const series = db.prepare('INSERT INTO ts_latest (device_id, key, ts, value_type, num_value, text_value, flag) VALUES (?, ?, ?, ?, ?, ?, ?)');
      const stage = db.prepare('INSERT INTO ts_staging (series_id, ts, value_type, num_value, text_value, flag) VALUES (?, ?, ?, ?, ?, ?)');
      for (const key of KEYS) {
        const first = encodeValue(valueOf(key, 0).value);
        const id = Number(series.run('dev-1', key, valueOf(key, 0).ts, first.valueType, first.numValue, first.textValue, null).lastInsertRowid);
        for (let i = 0; i < LEGACY_PER_KEY; i++) {
          const row = valueOf(key, i);
          const v = encodeValue(row.value);
          stage.run(id, row.ts, v.valueType, v.numValue, v.textValue, row.flag ?? null);
        }
      }
    });
  } finally {
    db.close();
  }
}

/** Then as a binary before migration 0048 left it: the next values of each key, one ts_staging_pack row per commit. */
function stageAsPackingBinary(file: string): void {
  const db = openDatabase(file, migrations.filter((m) => m.name !== '0048-telemetry-staging-ring'));
  try {
    transaction(db, () => {
      const insert = db.prepare('INSERT INTO ts_staging_pack (count, min_ts, max_ts, data) VALUES (?, ?, ?, ?)');
      for (const key of KEYS) {
        const id = (db.prepare("SELECT id FROM ts_latest WHERE device_id = 'dev-1' AND key = ?").get(key) as { id: number }).id;
        for (let from = LEGACY_PER_KEY; from < PACKED_PER_KEY; from += COMMIT) {
          const c = stagedColumns();
          for (let i = from; i < Math.min(PACKED_PER_KEY, from + COMMIT); i++) {
            const row = valueOf(key, i);
            const v = encodeValue(row.value);
            pushStagedRecord(c, [id, row.ts, v.valueType, v.numValue, v.textValue, row.flag ?? null]);
          }
          const pack = encodeStagedPack(c, 0, c.series.length);
          insert.run(c.series.length, pack.minTs, pack.maxTs, pack.data);
        }
      }
    });
  } finally {
    db.close();
  }
}

describe('moving staged history and a hard kill', () => {
  it('loses and doubles no value when the moving process is killed, and the next move completes it', { timeout: 120_000 }, async () => {
    const file = join(tempDir(), 'edge.db');
    stageAsOlderBinary(file);
    stageAsPackingBinary(file);
    const db = openDatabase(file, migrations);
    const repository = new TelemetryRepository(db);
    const repeated = KEYS.flatMap((k) => Array.from({ length: PER_KEY / REPEAT }, (_, n) => valueOf(k, n * REPEAT, true)));
    const rest = KEYS.flatMap((k) => Array.from({ length: PER_KEY - PACKED_PER_KEY }, (_, i) => valueOf(k, PACKED_PER_KEY + i)));
    transaction(db, () => {
      for (const list of [rest, repeated]) {
        for (let i = 0; i < list.length; i += COMMIT) repository.insertTelemetry([{ deviceId: 'dev-1', telemetry: list.slice(i, i + COMMIT) }]);
      }
    });
    db.close();
    const expected = Object.fromEntries(KEYS.map((k) => [k, expectedOf(k)]));
    const stagedAll = KEYS.length * PER_KEY + repeated.length;

    const killed = await runStorageChild('staging-move-child.ts', [file], 'moving');
    expect(killed).not.toContain('done');
    const afterKill = readAll(file);
    expect(afterKill.integrity).toBe('ok');
    // Moved oldest first: every value that arrived before the first still staged was moved, the
    // repeats (the last to arrive) onto values already moved.
    expect(afterKill.staged).toBeGreaterThan(0);
    const movedCount = stagedAll - afterKill.staged;
    expect(movedCount).toBeGreaterThan(0);
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

  it('keeps every value the ring acknowledged, exactly once, when its process is killed before and after the ring wraps', { timeout: 120_000 }, async () => {
    const file = join(tempDir(), 'edge.db');
    openDatabase(file, migrations).close();
    // A ring of 16 pages instead of the 2 MB a gateway creates (its size is the file's): laps of
    // 16 commits, each synced, so the test takes seconds on a loaded disk too.
    const lap = 16;
    writeFileSync(`${file}-staging`, new Uint8Array(lap * STAGING_PAGE));
    // One record (a page) per commit; a move every `moveEvery` commits, more than the ring holds.
    const moveEvery = lap * 2;
    const life = async (from: number, killAt: number): Promise<number[]> => {
      const lines = await runStorageChild('staging-ring-child.ts', [file, String(from), String(moveEvery)], `acked ${killAt}`);
      return lines.filter((l) => l.startsWith('acked ')).map((l) => Number(l.slice(6)));
    };
    // Killed past the ring's end with nothing moved yet: the start of the ring is still staged,
    // so the ring must have grown rather than started over.
    const acked = await life(0, Math.round(lap * 1.25));
    const afterKill = seqValues(file);
    expect(afterKill.integrity).toBe('ok');
    expect(afterKill.seqs.slice(0, acked.length)).toEqual(acked);
    expect(afterKill.blockValues).toBe(0);

    // A second life continues the ring where the first left it, moves, starts the ring over, and
    // is killed on its second lap: what the moves took is not read back twice.
    const next = afterKill.seqs.length;
    const ackedAgain = await life(next, Math.round(lap * 3.2));
    const finished = seqValues(file);
    expect(finished.integrity).toBe('ok');
    expect(finished.blockValues).toBeGreaterThan(0);
    expect(finished.seqs.slice(0, next + ackedAgain.length)).toEqual([...afterKill.seqs, ...ackedAgain]);
    expect(new Set(finished.seqs).size).toBe(finished.seqs.length);
  });
});

/** The values of dev-1's key seq in ts order, as a restart reads them (ring and blocks). */
function seqValues(file: string): { integrity: string; seqs: number[]; blockValues: number } {
  const db = openDatabase(file, migrations);
  try {
    const integrity = (db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check;
    const { n: blockValues } = db.prepare('SELECT COALESCE(SUM(count), 0) AS n FROM ts_block').get() as { n: number };
    const seqs = new TelemetryRepository(db).history('dev-1', 'seq', 0, Number.MAX_SAFE_INTEGER, 50_000, 'ASC').map((p) => Number(p.value));
    return { integrity, seqs, blockValues };
  } finally {
    db.close();
  }
}
