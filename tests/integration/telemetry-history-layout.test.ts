/**
 * Migration 0007 moves telemetry history to rows keyed by series: history stored before it must
 * read back the same afterwards (raw, aggregated, latest values), and new values join it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../server/app.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { TelemetryRepository } from '../../server/modules/telemetry/telemetry-repository.ts';
import { tempDir } from '../helpers/app.ts';

const before0007 = migrations.slice(0, migrations.findIndex((m) => m.name === '0007-telemetry-history-layout'));

describe('telemetry history layout (migration 0007)', () => {
  it('keeps the history, latest values and flags stored before it, and stores new values next to them', () => {
    const file = join(tempDir(), 'edge.db');
    const old = openDatabase(file, before0007);
    const history = old.prepare(
      'INSERT INTO ts_history (device_id, key, ts, value_type, num_value, text_value, flag) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    for (let i = 0; i < 5; i++) history.run('dev-a', 'temperature', 1000 * i, 1, 20 + i, null, i === 4 ? 'temperature: 24 is above the maximum 23' : null);
    history.run('dev-a', 'mode', 500, 2, null, 'eco', null);
    history.run('dev-b', 'temperature', 2000, 1, 7, null, null);
    const latest = old.prepare('INSERT INTO ts_latest (device_id, key, ts, value_type, num_value, text_value, flag) VALUES (?, ?, ?, ?, ?, ?, ?)');
    latest.run('dev-a', 'temperature', 4000, 1, 24, null, 'temperature: 24 is above the maximum 23');
    latest.run('dev-a', 'mode', 500, 2, null, 'eco', null);
    // dev-b's latest row is missing: the migration makes one from its newest history value.
    old.close();

    const db = openDatabase(file, migrations);
    try {
      const rows = new TelemetryRepository(db);
      expect(rows.history('dev-a', 'temperature', 0, 10_000, 100, 'ASC').map((p) => [p.ts, p.value, p.flag])).toEqual([
        [0, 20, null],
        [1000, 21, null],
        [2000, 22, null],
        [3000, 23, null],
        [4000, 24, 'temperature: 24 is above the maximum 23'],
      ]);
      expect(rows.aggregate('dev-a', 'temperature', { startTs: 0, endTs: 10_000, interval: 10_000 }, 'SUM', 10, 'ASC', true)).toEqual([{ bucket: 0, value: 110 }]);
      expect(rows.history('dev-a', 'mode', 0, 10_000, 100, 'ASC').map((p) => p.value)).toEqual(['eco']);
      expect(rows.latest('dev-b', null).map((p) => [p.key, p.ts, p.value])).toEqual([['temperature', 2000, 7]]);

      db.exec('BEGIN');
      rows.insertTelemetry([{ deviceId: 'dev-b', telemetry: [{ ts: 3000, key: 'temperature', value: 8 }] }]);
      db.exec('COMMIT');
      expect(rows.history('dev-b', 'temperature', 0, 10_000, 100, 'ASC').map((p) => p.value)).toEqual([7, 8]);
      expect(rows.history('dev-a', 'temperature', 0, 10_000, 100, 'ASC')).toHaveLength(5);
      expect(rows.latest('dev-b', ['temperature'])[0]?.value).toBe(8);
    } finally {
      db.close();
    }
  });
});
