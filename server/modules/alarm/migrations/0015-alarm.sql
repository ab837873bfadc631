-- Alarms raised by scenes' MSG_NOTIFY actions (server/contract/alarm.ts).
-- Forward only: a shipped migration is never edited.

CREATE TABLE alarm (
  id TEXT PRIMARY KEY,
  scene_linkage_id TEXT NOT NULL,          -- no foreign key: the record outlives a deleted scene
  scene_name TEXT NOT NULL,                -- as it was when the alarm was raised
  trigger_index INTEGER,                   -- the scene's trigger that raised it (its clear rule clears it)
  device_id TEXT REFERENCES device(id) ON DELETE CASCADE,
  device_name TEXT,
  device_alias TEXT,
  organization_id TEXT,                    -- the device's organization when raised (alarm profile counts)
  severity TEXT NOT NULL,                  -- CRITICAL | MAJOR | MINOR | WARNING | INDETERMINATE
  type TEXT NOT NULL,
  status TEXT NOT NULL,                    -- ACTIVE_UNACK | ACTIVE_ACK | CLEARED_UNACK | CLEARED_ACK
  start_ts INTEGER NOT NULL,
  end_ts INTEGER,
  create_time INTEGER NOT NULL,
  ack_ts INTEGER,
  clear_ts INTEGER,
  count INTEGER NOT NULL DEFAULT 1,
  details TEXT NOT NULL                    -- JSON: AlarmDetails
);
-- One open alarm per (scene, device, type): firing again updates it.
CREATE UNIQUE INDEX alarm_open ON alarm(scene_linkage_id, ifnull(device_id, ''), type) WHERE status IN ('ACTIVE_UNACK', 'ACTIVE_ACK');
CREATE INDEX alarm_create_time ON alarm(create_time);
CREATE INDEX alarm_status_time ON alarm(status, create_time);
CREATE INDEX alarm_device_time ON alarm(device_id, create_time);
CREATE INDEX alarm_organization ON alarm(organization_id, status);
