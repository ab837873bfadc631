-- Soft gateway: managed Node-RED instances and the snapshots of their flows (server/contract/node-red.ts).
CREATE TABLE node_red_instance (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  port INTEGER NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  -- 1: started again when the gateway starts; 0: stopped by an administrator.
  wanted_running INTEGER NOT NULL DEFAULT 1,
  created_time INTEGER NOT NULL
);

CREATE TABLE node_red_snapshot (
  id TEXT PRIMARY KEY,
  instance_id TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL,           -- DEPLOY | MANUAL | ROLLBACK
  flows TEXT NOT NULL,            -- the flows file as deployed (JSON array)
  credentials TEXT,               -- the credentials file, still encrypted with the instance's secret; null: none
  node_count INTEGER NOT NULL,
  created_time INTEGER NOT NULL
);
CREATE INDEX node_red_snapshot_instance ON node_red_snapshot (instance_id, created_time DESC);
