-- Event records in the order they were stored, by a number SQLite never hands out twice: a plain
-- rowid is the largest plus one, so after the newest records were deleted (their device deleted,
-- or older than the retention) the next ones took their numbers again, and a reader following the
-- stored order from a cursor (the cloud link's device-event backlog) skipped them. AUTOINCREMENT
-- keeps the highest number ever used in sqlite_sequence. The rowids are kept (seq is their alias
-- now), so a cursor already stored keeps its meaning.
CREATE TABLE event_record_sequenced (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  device_id TEXT NOT NULL,
  ts INTEGER NOT NULL,
  identifier TEXT NOT NULL,
  event_name TEXT,
  event_type TEXT NOT NULL,               -- INFO | ALERT | ERROR
  params TEXT NOT NULL,                   -- JSON object of the output parameters
  flag TEXT,
  create_time INTEGER NOT NULL
);
INSERT INTO event_record_sequenced (seq, id, device_id, ts, identifier, event_name, event_type, params, flag, create_time)
  SELECT rowid, id, device_id, ts, identifier, event_name, event_type, params, flag, create_time FROM event_record ORDER BY rowid;
DROP TABLE event_record;
ALTER TABLE event_record_sequenced RENAME TO event_record;
CREATE INDEX event_record_device_ts ON event_record(device_id, ts);
CREATE INDEX event_record_ts ON event_record(ts);
