-- Modbus polling per product (server/contract/tcp-device.ts): the polling period and the largest
-- gap of unused registers one request may bridge. Defaults as the contract's.
ALTER TABLE device_profile ADD COLUMN poll_interval_ms INTEGER NOT NULL DEFAULT 5000;
ALTER TABLE device_profile ADD COLUMN modbus_gap_max INTEGER NOT NULL DEFAULT 8;
