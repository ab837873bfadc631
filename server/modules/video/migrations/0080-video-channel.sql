-- Video channels (server/contract/video.ts).
-- Forward only: a shipped migration is never edited.

CREATE TABLE video_channel (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  manufacturer TEXT NOT NULL,              -- hikvision | dahua | uniview | other
  organization_id TEXT,                    -- no foreign key: scoped like a device's organization
  device_kind TEXT NOT NULL,               -- CAMERA | NVR
  device_id TEXT REFERENCES device(id) ON DELETE SET NULL,
  channel_no INTEGER NOT NULL,
  host TEXT,
  rtsp_port INTEGER NOT NULL,
  username TEXT,
  password_sealed TEXT,                    -- AES-256-GCM under the per-install key (server/lib/secret-box.ts)
  stream_type TEXT NOT NULL,               -- master | sub | third
  rtsp_address TEXT NOT NULL,              -- without credentials
  national_code TEXT,
  channel_code TEXT,
  model TEXT,
  status TEXT NOT NULL DEFAULT 'UNKNOWN',  -- UNKNOWN | ONLINE | OFFLINE
  offline_reason TEXT,
  codec TEXT,
  width INTEGER,
  height INTEGER,
  probed_time INTEGER,
  create_time INTEGER NOT NULL,
  update_time INTEGER NOT NULL
);
CREATE INDEX video_channel_organization ON video_channel(organization_id);
CREATE INDEX video_channel_device ON video_channel(device_id);
CREATE INDEX video_channel_create_time ON video_channel(create_time);
