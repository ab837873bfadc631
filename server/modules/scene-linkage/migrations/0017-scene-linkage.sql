-- Scenes of the rule engine (server/contract/scene-linkage.ts) and their execution log.
-- Forward only: a shipped migration is never edited.

CREATE TABLE scene_linkage (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT,
  enabled INTEGER NOT NULL DEFAULT 0,
  body TEXT NOT NULL,                      -- JSON: { schedule, triggers, conditions, actions, clearRules }
  create_time INTEGER NOT NULL,
  update_time INTEGER NOT NULL
);
CREATE INDEX scene_linkage_create_time ON scene_linkage(create_time);

CREATE TABLE scene_linkage_log (
  id TEXT PRIMARY KEY,
  scene_linkage_id TEXT NOT NULL REFERENCES scene_linkage(id) ON DELETE CASCADE,
  ts INTEGER NOT NULL,
  trigger_index INTEGER,
  trigger_type TEXT NOT NULL,
  device_id TEXT,
  value TEXT,                              -- JSON of the value that fired it
  conditions_met INTEGER NOT NULL,
  actions TEXT NOT NULL                    -- JSON: ActionResult[]
);
CREATE INDEX scene_linkage_log_scene_time ON scene_linkage_log(scene_linkage_id, ts);
