-- Device firmware (OTA) per product, and each device's progress (server/contract/ota.ts).
-- Forward only: a shipped migration is never edited.

CREATE TABLE ota_package (
  id TEXT PRIMARY KEY,
  product_id TEXT NOT NULL REFERENCES device_profile(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  version TEXT NOT NULL,
  file_name TEXT NOT NULL,                 -- the uploader's name, sent back to devices (the file is <data-dir>/ota/<id>.bin)
  size INTEGER NOT NULL,
  checksum_algorithm TEXT NOT NULL,        -- SHA256 | SHA384 | SHA512 | MD5 | CRC32
  checksum TEXT NOT NULL,                  -- lower-case hex
  created_time INTEGER NOT NULL
);
CREATE UNIQUE INDEX ota_package_title_version ON ota_package(product_id, title, version);

-- One assignment per device: assigning another package replaces it.
CREATE TABLE ota_device (
  id TEXT PRIMARY KEY,                     -- the device's id
  device_id TEXT NOT NULL UNIQUE REFERENCES device(id) ON DELETE CASCADE,
  package_id TEXT NOT NULL REFERENCES ota_package(id) ON DELETE CASCADE,
  state TEXT NOT NULL,                     -- QUEUED | INITIATED | DOWNLOADING | … | UPDATED | FAILED
  error TEXT,
  queued_time INTEGER NOT NULL,            -- notification order under the rate limit
  updated_time INTEGER NOT NULL
);
CREATE INDEX ota_device_package ON ota_device(package_id);
CREATE INDEX ota_device_queue ON ota_device(queued_time) WHERE state = 'QUEUED';
