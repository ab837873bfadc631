-- Visualization configurations and their share links (server/contract/visualization.ts).
CREATE TABLE visualization (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  platform TEXT NOT NULL,           -- pc | phone
  template INTEGER NOT NULL DEFAULT 0,
  organization_id TEXT,             -- null: the tenant's own (unscoped callers only)
  thumbnail TEXT,                   -- data URL (PNG or JPEG)
  layout TEXT NOT NULL,             -- JSON { widgets: [...] }
  create_time INTEGER NOT NULL,
  update_time INTEGER NOT NULL
);
CREATE INDEX visualization_update ON visualization(update_time);

-- At most one live link per configuration; only the SHA-256 of the token is kept.
CREATE TABLE visualization_share (
  id TEXT PRIMARY KEY,
  visualization_id TEXT NOT NULL UNIQUE REFERENCES visualization(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  expires_at INTEGER,
  created_by TEXT,
  create_time INTEGER NOT NULL
);
