/**
 * The statements that store device data, shared by the repository (commits on the main thread)
 * and the history worker (commits on its own connection), so both write exactly alike.
 */
import type { SQLInputValue } from 'node:sqlite';
import { encodeValue } from './stored-value.ts';
import type { AttributeRow, EventRecordRow } from './telemetry-rows.ts';

export const writeSql = {
  // Appended in arrival order (migration 0014): a commit changes the staging table's last page or
  // two, not one history leaf per series. A repeated (series, ts) is resolved when it is read or
  // moved: the greater id wins, so QoS 1 redelivery still stores a message once.
  history: 'INSERT INTO ts_staging (series_id, ts, value_type, num_value, text_value, flag) VALUES (?, ?, ?, ?, ?, ?)',
  /**
   * The id the staged values of a move stop before (the oldest `?` of them go), and whether that
   * is all of them (staging-mover.ts).
   */
  moveEnd: 'SELECT MIN(id) + ? AS end, MIN(id) + ? > MAX(id) AS rest FROM ts_staging',
  /**
   * The staged values with id < `?` into the series-keyed history, in one transaction
   * (staging-mover.ts): in id order, so among values of one series and ts the last to arrive overwrites the others, as it
   * would have when written directly. The WHERE is what SQLite needs to read ON CONFLICT as the
   * upsert's. Freed staging pages are what the next appends reuse. A move of everything staged
   * (the usual one) empties the table with a DELETE without WHERE, which frees its pages without
   * writing them, where deleting a range rewrites each leaf first (twice the bytes of a move).
   *
   * The latest values are brought up to date here too, not at each commit (one page fewer per
   * commit): per series the staged value with the greatest ts, the last among equals, unless
   * ts_latest holds a newer one (a late message goes to history only). Until then the reader
   * answers them from the staging table (TelemetryRepository.latest).
   */
  moveStaged: [
    `UPDATE ts_latest SET ts = s.ts, value_type = s.value_type, num_value = s.num_value, text_value = s.text_value, flag = s.flag
      FROM (SELECT series_id, ts, value_type, num_value, text_value, flag,
              row_number() OVER (PARTITION BY series_id ORDER BY ts DESC, id DESC) AS n FROM ts_staging WHERE id < ?) AS s
      WHERE s.n = 1 AND ts_latest.id = s.series_id AND ts_latest.ts <= s.ts`,
    `INSERT INTO ts_history (series_id, ts, value_type, num_value, text_value, flag)
      SELECT series_id, ts, value_type, num_value, text_value, flag FROM ts_staging WHERE id < ? ORDER BY id
      ON CONFLICT(series_id, ts) DO UPDATE SET value_type = excluded.value_type, num_value = excluded.num_value,
        text_value = excluded.text_value, flag = excluded.flag`,
    'DELETE FROM ts_staging WHERE id < ?',
    'DELETE FROM ts_staging',
  ],
  series: 'SELECT id FROM ts_latest WHERE device_id = ? AND key = ?',
  newSeries: 'INSERT INTO ts_latest (device_id, key, ts, value_type, num_value, text_value, flag) VALUES (?, ?, ?, ?, ?, ?, ?)',
  attribute: `INSERT INTO attribute_kv (device_id, scope, key, last_update_ts, value_type, num_value, text_value, flag) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(device_id, scope, key) DO UPDATE SET last_update_ts = excluded.last_update_ts,
      value_type = excluded.value_type, num_value = excluded.num_value, text_value = excluded.text_value, flag = excluded.flag`,
  event: `INSERT INTO event_record (id, device_id, ts, identifier, event_name, event_type, params, flag, create_time)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  /** A deleted device's latest values and attributes, with whatever history reached its series meanwhile. */
  forgetDevice: [
    'DELETE FROM ts_staging WHERE series_id IN (SELECT id FROM ts_latest WHERE device_id = ?)',
    'DELETE FROM ts_history WHERE series_id IN (SELECT id FROM ts_latest WHERE device_id = ?)',
    'DELETE FROM ts_block WHERE series_id IN (SELECT id FROM ts_latest WHERE device_id = ?)',
    'DELETE FROM ts_latest WHERE device_id = ?',
    'DELETE FROM attribute_kv WHERE device_id = ?',
  ],
} as const;

/** Parameters of `writeSql.attribute`. */
export function attributeParams(deviceId: string, scope: string, row: AttributeRow): SQLInputValue[] {
  const v = encodeValue(row.value);
  return [deviceId, scope, row.key, row.lastUpdateTs, v.valueType, v.numValue, v.textValue, row.flag ?? null];
}

/** Parameters of `writeSql.event`. */
export function eventParams(e: EventRecordRow): SQLInputValue[] {
  return [e.id, e.deviceId, e.ts, e.identifier, e.eventName, e.eventType, JSON.stringify(e.params), e.flag, e.createdTime];
}
