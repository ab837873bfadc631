/**
 * What a data dir's history holds for a device, counted in its tables (staged values and ts_history
 * rows) for the storage tests that look beneath the API: a value stored twice counts once.
 */
import type { Db } from '../../server/db/sqlite.ts';
import { readStagingRing } from '../../server/modules/telemetry/staging-ring.ts';
import { StagingStore } from '../../server/modules/telemetry/staging-store.ts';

/** What `db` has staged as a restart would read it back (the ring's file, not another connection's memory). */
function onDisk<T>(db: Db, read: (staging: StagingStore) => T): T {
  const ring = readStagingRing(db);
  try {
    return read(new StagingStore(db, ring));
  } finally {
    ring.close();
  }
}

/** Distinct (key, ts) of the device's values staged or in ts_history, of `key` and `ts` when given. */
export function storedValueCount(db: Db, deviceId: string, filter: { key?: string; ts?: number } = {}): number {
  const series = new Map(
    (db.prepare('SELECT id, key FROM ts_latest WHERE device_id = ?').all(deviceId) as { id: number; key: string }[])
      .filter((s) => filter.key === undefined || s.key === filter.key)
      .map((s) => [s.id, s.key]),
  );
  const seen = new Set<string>();
  const add = (seriesId: number, ts: number): void => {
    if (series.has(seriesId) && (filter.ts === undefined || ts === filter.ts)) seen.add(`${seriesId}:${ts}`);
  };
  for (const r of onDisk(db, (s) => s.all())) add(r[0], r[1]);
  for (const r of db.prepare('SELECT series_id, ts FROM ts_history').all() as { series_id: number; ts: number }[]) add(r.series_id, r.ts);
  return seen.size;
}

/** Values staged now (the ring and the old staging tables). */
export function stagedCount(db: Db): number {
  return onDisk(db, (s) => s.count());
}
