-- Operation management's banners (login page) and guide entries (workbench quick entries): one
-- table, told apart by kind, since both are the same record (name, image, target, status, sort).
CREATE TABLE operation_entry (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('banner', 'guide')),
  name TEXT NOT NULL,
  image TEXT NOT NULL,
  url TEXT NOT NULL DEFAULT '',
  status INTEGER NOT NULL DEFAULT 1,
  sort INTEGER NOT NULL DEFAULT 0,
  remark TEXT NOT NULL DEFAULT '',
  create_time INTEGER NOT NULL
);

CREATE INDEX operation_entry_kind_sort ON operation_entry (kind, sort, create_time);
