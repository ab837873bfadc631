/**
 * Reading and writing one JSON row of the `setting` table (licence, cloud configuration, branding…).
 * Settings are written with synchronous=FULL so a power cut right after a change does not lose it.
 */
import { durably, type Db } from './sqlite.ts';

export interface SettingRow<T> {
  value: T;
  updatedTime: number;
}

export function readSetting<T>(db: Db, id: string): SettingRow<T> | null {
  const row = db.prepare('SELECT value, updated_time FROM setting WHERE id = ?').get(id) as
    | { value: string; updated_time: number }
    | undefined;
  return row ? { value: JSON.parse(row.value) as T, updatedTime: row.updated_time } : null;
}

export function writeSetting<T>(db: Db, id: string, value: T, updatedTime = Date.now()): SettingRow<T> {
  const upsert = (): void => {
    db.prepare(
      `INSERT INTO setting (id, value, updated_time) VALUES (?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET value = excluded.value, updated_time = excluded.updated_time`,
    ).run(id, JSON.stringify(value), updatedTime);
  };
  // SQLite cannot change the synchronous pragma inside a transaction: a caller's transaction is
  // joined and its owner decides durability.
  if (db.isTransaction) upsert();
  else durably(db, upsert);
  return { value, updatedTime };
}
