/**
 * The statements that store device data, shared by the repository (commits on the main thread)
 * and the history worker (commits on its own connection), so both write exactly alike.
 */
import type { SQLInputValue } from 'node:sqlite';
import { encodeValue } from './stored-value.ts';
import type { AttributeRow, EventRecordRow } from './telemetry-rows.ts';

export const writeSql = {
  series: 'SELECT id FROM ts_latest WHERE device_id = ? AND key = ?',
  newSeries: 'INSERT INTO ts_latest (device_id, key, ts, value_type, num_value, text_value, flag) VALUES (?, ?, ?, ?, ?, ?, ?)',
  attribute: `INSERT INTO attribute_kv (device_id, scope, key, last_update_ts, value_type, num_value, text_value, flag) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(device_id, scope, key) DO UPDATE SET last_update_ts = excluded.last_update_ts,
      value_type = excluded.value_type, num_value = excluded.num_value, text_value = excluded.text_value, flag = excluded.flag`,
  event: `INSERT INTO event_record (id, device_id, ts, identifier, event_name, event_type, params, flag, create_time)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  /**
   * A deleted device's latest values and attributes, with whatever history reached its series
   * meanwhile (its values in staged packs are dropped first, in JS: StagingStore.forget).
   */
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
