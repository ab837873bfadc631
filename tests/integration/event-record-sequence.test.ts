/**
 * Migrations 0040 and 0041 on a gateway upgraded while the cloud link's device-event cursor pointed
 * past its newest event record (the newest were deleted with their device): the records keep their
 * numbers, and the ones stored after the upgrade are numbered after the cursor, never below it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../server/app.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { TelemetryRepository } from '../../server/modules/telemetry/telemetry-repository.ts';
import { tempDir } from '../helpers/app.ts';

const before0040 = migrations.slice(0, migrations.findIndex((m) => m.name === '0040-event-record-sequence'));

function record(id: string, deviceId: string): Parameters<TelemetryRepository['insertEvent']>[0] {
  return { id, deviceId, ts: 1000, identifier: 'opened', eventName: null, eventType: 'INFO', params: { id }, flag: null, createdTime: 1000 };
}

describe('event record sequence (migrations 0040, 0041)', () => {
  it('keeps the stored numbers and numbers new records after both the newest ever stored and the cloud cursor', () => {
    const file = join(tempDir(), 'edge.db');
    const old = openDatabase(file, before0040);
    const oldRows = new TelemetryRepository(old);
    for (const id of ['a1', 'a2', 'b3', 'b4', 'b5']) oldRows.insertEvent(record(id, id.startsWith('a') ? 'dev-a' : 'dev-b'));
    // The cloud acknowledged all five, then dev-b was deleted with its records.
    old.prepare('UPDATE cloud_progress SET event_seq = 5 WHERE id = 1').run();
    old.prepare("DELETE FROM event_record WHERE device_id = 'dev-b'").run();
    old.close();

    const db = openDatabase(file, migrations);
    try {
      const rows = new TelemetryRepository(db);
      const seqOf = (id: string): number => (db.prepare('SELECT seq FROM event_record WHERE id = ?').get(id) as { seq: number }).seq;
      expect([seqOf('a1'), seqOf('a2')]).toEqual([1, 2]);
      rows.insertEvent(record('a6', 'dev-a'));
      expect(seqOf('a6')).toBe(6);
      // Deleting the newest again hands out no number twice.
      db.prepare("DELETE FROM event_record WHERE id = 'a6'").run();
      rows.insertEvent(record('a7', 'dev-a'));
      expect(seqOf('a7')).toBe(7);
      expect(rows.eventPage('dev-a', {}, 1, 10).items.map((e) => e.id)).toEqual(['a7', 'a2', 'a1']);
    } finally {
      db.close();
    }
  });
});
