-- Telemetry history keyed by series (issue 4, throughput): each history row named its device (a
-- 36-character id) and key and carried a rowid plus a separate unique index, so every stored value
-- was written twice at ~145 bytes. Now a value is one row of a WITHOUT ROWID table keyed
-- (series_id, ts), ~28 bytes, where series_id is the id of the series' row in ts_latest (which
-- already holds one row per device and key). Same rule as before: one value per series and
-- millisecond, a repeated one overwrites.

-- Every series with history has its latest row already; this covers any that would not.
INSERT INTO ts_latest (device_id, key, ts, value_type, num_value, text_value, flag)
  SELECT h.device_id, h.key, h.ts, h.value_type, h.num_value, h.text_value, h.flag FROM ts_history h
  WHERE NOT EXISTS (SELECT 1 FROM ts_latest l WHERE l.device_id = h.device_id AND l.key = h.key)
    AND h.ts = (SELECT MAX(m.ts) FROM ts_history m WHERE m.device_id = h.device_id AND m.key = h.key);

CREATE TABLE ts_history_by_series (
  series_id INTEGER NOT NULL,             -- ts_latest.id of the device and key
  ts INTEGER NOT NULL,                    -- epoch ms, the device's or the arrival time
  value_type INTEGER NOT NULL,
  num_value REAL,
  text_value TEXT,
  flag TEXT,
  PRIMARY KEY (series_id, ts)
) WITHOUT ROWID;

INSERT INTO ts_history_by_series (series_id, ts, value_type, num_value, text_value, flag)
  SELECT l.id, h.ts, h.value_type, h.num_value, h.text_value, h.flag
  FROM ts_history h JOIN ts_latest l ON l.device_id = h.device_id AND l.key = h.key
  ORDER BY l.id, h.ts;

DROP TABLE ts_history;
ALTER TABLE ts_history_by_series RENAME TO ts_history;
