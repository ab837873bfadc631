-- Protocol modules: vendors' Node-RED flow or subflow templates (server/contract/protocol-module.ts).
CREATE TABLE protocol_module (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  type TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  corporate_name TEXT NOT NULL,
  certificate TEXT NOT NULL DEFAULT '',
  kind TEXT NOT NULL,              -- FLOW | SUBFLOW
  flow TEXT NOT NULL,              -- the module's items (JSON array) as uploaded
  node_count INTEGER NOT NULL,
  size_bytes INTEGER NOT NULL,
  created_time INTEGER NOT NULL
);
CREATE INDEX protocol_module_created ON protocol_module (created_time DESC);
