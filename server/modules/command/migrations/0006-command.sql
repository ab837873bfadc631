-- Commands to devices and the message-volume counters of the workbench (issue 4).
-- Forward only: a shipped migration is never edited.

CREATE TABLE device_command (
  id TEXT PRIMARY KEY,
  device_id TEXT NOT NULL REFERENCES device(id) ON DELETE CASCADE,
  request_id INTEGER NOT NULL,             -- the {requestId} of v1/devices/me/rpc/request/{requestId}
  command_type TEXT NOT NULL,              -- CUSTOM | SERVICE | ATTRIBUTE | API
  call_type TEXT NOT NULL,                 -- ASYNC | SYNC
  way TEXT NOT NULL,                       -- oneway | twoway
  format TEXT NOT NULL,                    -- JSON | ASCII | HEX
  content TEXT NOT NULL,
  method TEXT NOT NULL,                    -- the RPC request as sent
  params TEXT NOT NULL,                    -- JSON text
  status TEXT NOT NULL,                    -- QUEUED | SENT | DELIVERED | SUCCESSFUL | TIMEOUT | EXPIRED | FAILED | DELETED
  response_type TEXT,                      -- JSON | TEXT
  response_content TEXT,
  timeout_ms INTEGER NOT NULL,
  expires_time INTEGER,                    -- QUEUED commands give up then
  deadline_time INTEGER,                   -- SENT twoway commands time out then
  create_time INTEGER NOT NULL,
  sent_time INTEGER,
  responded_time INTEGER,
  update_time INTEGER NOT NULL
);
-- The record list (newest first per device) and the pending look-ups.
CREATE INDEX device_command_device_time ON device_command(device_id, create_time);
CREATE INDEX device_command_status ON device_command(status);
CREATE INDEX device_command_request ON device_command(device_id, request_id);

-- Device messages per minute: id is the minute's start (epoch ms), so a range is a primary-key scan.
CREATE TABLE message_stat (
  id INTEGER PRIMARY KEY,
  count INTEGER NOT NULL,
  bytes INTEGER NOT NULL
);
