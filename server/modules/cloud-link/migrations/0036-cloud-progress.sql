-- The cloud link's progress in one row, written with the telemetry cursors (cloud-progress.ts):
-- the newest event_record rowid the cloud acknowledged (device events are read from the stored
-- records after it, no second queue), and the edge state's counters and times so they survive a
-- restart. Events stored before this row existed were sent live or owed to no cloud: start after them.
CREATE TABLE cloud_progress (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  event_seq INTEGER NOT NULL,
  sent_day TEXT NOT NULL,                 -- the local day sent_today counts (YYYY-MM-DD)
  sent_today INTEGER NOT NULL,
  dropped INTEGER NOT NULL,
  last_connect_time INTEGER,
  last_disconnect_time INTEGER
);
INSERT INTO cloud_progress (id, event_seq, sent_day, sent_today, dropped)
  SELECT 1, COALESCE(MAX(rowid), 0), '', 0, 0 FROM event_record;
