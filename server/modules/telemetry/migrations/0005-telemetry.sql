-- Telemetry (issue 4): history, latest values, client attributes and event records reported by
-- devices. No foreign keys to `device`: a device with a million history rows must delete in a
-- moment, so the transport purges its rows afterwards in small steps instead of one cascade.
--
-- Values are typed: value_type 0 boolean (num_value 1/0), 1 number (num_value), 2 string
-- (text_value), 3 JSON object or array (text_value holds the JSON text). Aggregations read
-- num_value. `flag` says why the value did not match the product's published thing model.

CREATE TABLE ts_history (
  id INTEGER PRIMARY KEY,
  device_id TEXT NOT NULL,
  key TEXT NOT NULL,
  ts INTEGER NOT NULL,                    -- epoch ms, the device's or the arrival time
  value_type INTEGER NOT NULL,
  num_value REAL,
  text_value TEXT,
  flag TEXT
);
-- One value per device, key and time (a repeated message overwrites, as in ThingsBoard); serves
-- range queries, aggregation and retention by series.
CREATE UNIQUE INDEX ts_history_series ON ts_history(device_id, key, ts);

CREATE TABLE ts_latest (
  id INTEGER PRIMARY KEY,
  device_id TEXT NOT NULL,
  key TEXT NOT NULL,
  ts INTEGER NOT NULL,
  value_type INTEGER NOT NULL,
  num_value REAL,
  text_value TEXT,
  flag TEXT
);
CREATE UNIQUE INDEX ts_latest_key ON ts_latest(device_id, key);

-- Client attributes (the device's own, from v1/devices/me/attributes): the latest of each.
CREATE TABLE attribute_kv (
  id INTEGER PRIMARY KEY,
  device_id TEXT NOT NULL,
  scope TEXT NOT NULL,                    -- CLIENT_SCOPE
  key TEXT NOT NULL,
  last_update_ts INTEGER NOT NULL,
  value_type INTEGER NOT NULL,
  num_value REAL,
  text_value TEXT
);
CREATE UNIQUE INDEX attribute_kv_key ON attribute_kv(device_id, scope, key);

-- Events from v1/devices/me/events (spec section 3 "Event record": time, identifier, event name,
-- event type, output parameters). Matched to the published thing model's events: event_name and
-- event_type come from the model; an unmatched identifier keeps the device's type (INFO when it
-- gave none), event_name NULL and a flag.
CREATE TABLE event_record (
  id TEXT PRIMARY KEY,
  device_id TEXT NOT NULL,
  ts INTEGER NOT NULL,
  identifier TEXT NOT NULL,
  event_name TEXT,
  event_type TEXT NOT NULL,               -- INFO | ALERT | ERROR
  params TEXT NOT NULL,                   -- JSON object of the output parameters
  flag TEXT,
  create_time INTEGER NOT NULL
);
CREATE INDEX event_record_device_ts ON event_record(device_id, ts);
CREATE INDEX event_record_ts ON event_record(ts);
