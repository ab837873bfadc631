-- Store-and-forward: per device, the newest telemetry ts the cloud acknowledged. Telemetry is read
-- from the stored history after it; nothing is copied into a second queue.
CREATE TABLE cloud_cursor (
  id TEXT PRIMARY KEY,                    -- the device id
  acked_ts INTEGER NOT NULL
);
