-- Cloud events: local changes the cloud must learn, PENDING until the cloud's PUBACK (DEPLOYED) or
-- refused (FAILED, with the reason). Sent in rowid order.
CREATE TABLE cloud_event (
  id TEXT PRIMARY KEY,
  entity_id TEXT NOT NULL,
  entity_name TEXT NOT NULL,
  entity_type TEXT NOT NULL,              -- DEVICE | DEVICE_PROFILE | ATTRIBUTE
  event TEXT NOT NULL,                    -- CREATED | RENAMED | DELETED | PRODUCT_CHANGED | ATTRIBUTES_UPDATED | CONNECTED | DISCONNECTED
  topic TEXT NOT NULL,                    -- the gateway topic it is published on
  body TEXT NOT NULL,                     -- the JSON payload
  status TEXT NOT NULL,                   -- PENDING | DEPLOYED | FAILED
  reason TEXT,
  created_time INTEGER NOT NULL,
  deployed_time INTEGER
);
CREATE INDEX cloud_event_pending ON cloud_event(status) WHERE status = 'PENDING';
CREATE INDEX cloud_event_created ON cloud_event(created_time);
