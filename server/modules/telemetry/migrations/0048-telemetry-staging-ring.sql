-- Staged history values live in a ring file beside the database (staging-log.ts, issue 26: a
-- commit there dirties one 4 KiB page where a table's commit dirtied ~11 KB). What is moved into
-- blocks is told by the highest record sequence moved, written in the move's own transaction:
-- records at or below it are in ts_block, the ones above are staged.
CREATE TABLE ts_staging_moved (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  up_to INTEGER NOT NULL
);
INSERT INTO ts_staging_moved (id, up_to) VALUES (1, 0);
-- A deleted device's series: its values in records up to `up_to` are not read back from the ring
-- (the ring is append-only; a series id may be reused by a new series). A row goes once the mark
-- passes it.
CREATE TABLE ts_staging_forgotten (
  series_id INTEGER PRIMARY KEY,
  up_to INTEGER NOT NULL
);
