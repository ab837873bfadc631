-- Compressed history blocks (docs/ARCHITECTURE.md, "History blocks"): a background compactor moves
-- each series' older history rows into blocks of up to a few thousand values within one UTC day,
-- encoded by blocks/block-codec.ts (~2 bytes per value instead of ~28 plus the b-tree's share).
-- Recent values stay rows; queries read rows and blocks together. A series' blocks never overlap
-- in time; a row with the ts of a block value is the newer write and wins.
--
-- Beside its bytes a block keeps the summary of its unflagged numeric values (booleans as 1/0),
-- so aggregations over intervals that hold whole blocks read no block data; `flagged` counts the
-- values with a flag, and a block with any is decoded instead (history-aggregate.ts).

CREATE TABLE ts_block (
  id INTEGER PRIMARY KEY,
  series_id INTEGER NOT NULL,             -- ts_latest.id of the device and key
  first_ts INTEGER NOT NULL,
  last_ts INTEGER NOT NULL,
  count INTEGER NOT NULL,                 -- values in the block
  flagged INTEGER NOT NULL,               -- of which with a flag
  num_count INTEGER NOT NULL,             -- unflagged numbers and booleans, which the summary covers
  num_min REAL,
  num_max REAL,
  num_sum REAL NOT NULL,
  num_sum_lo REAL NOT NULL,               -- the sum's rounding error (compensated summation)
  data BLOB NOT NULL                      -- last, so reading the summary leaves the blob's pages alone
);
CREATE UNIQUE INDEX ts_block_series ON ts_block(series_id, first_ts);
