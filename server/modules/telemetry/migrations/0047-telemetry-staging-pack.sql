-- Staged history values one row per commit (docs/PERFORMANCE-FINDINGS.md, "Flash wear"): a commit
-- appends one row holding all its values in the binary form of staging-pack.ts, where ts_staging
-- (migration 0014) took one ~31 B row per value. At a paced fleet's pace the rewritten last page
-- fills three times slower and the table allocates pages (each also writing the database header
-- and the auto-vacuum pointer map) as rarely. ts_staging stays: values an older binary staged are
-- read and moved from it (oldest first: they arrived before any pack), it is no longer written.
CREATE TABLE ts_staging_pack (
  id INTEGER PRIMARY KEY,                 -- arrival order
  count INTEGER NOT NULL,                 -- values in data
  min_ts INTEGER NOT NULL,                -- their smallest and greatest ts: readers skip packs
  max_ts INTEGER NOT NULL,                -- outside the range they ask for
  data BLOB NOT NULL                      -- staging-pack.ts
);
