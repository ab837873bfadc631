-- Telemetry staging (docs/ARCHITECTURE.md, "Group commit, durability and what a message writes to
-- disk"): the writer appends every history value here, in arrival order, instead of into the
-- series-keyed ts_history. Rows go in rowid order and the table has no other index, so a commit
-- changes the table's last page or two whatever the number of series it touches, where an insert
-- into ts_history changed one leaf per series. The writer moves the staged values into ts_history
-- in large batches (staging-mover.ts, one transaction each); queries read both
-- (history-reader.ts). A series may appear here more than once with the same ts: the row with the
-- greater id is the newer write and wins, as an overwrite in ts_history does.
CREATE TABLE ts_staging (
  id INTEGER PRIMARY KEY,                 -- arrival order
  series_id INTEGER NOT NULL,             -- ts_latest.id of the device and key
  ts INTEGER NOT NULL,                    -- epoch ms, the device's or the arrival time
  value_type INTEGER NOT NULL,
  num_value REAL,
  text_value TEXT,
  flag TEXT
);
