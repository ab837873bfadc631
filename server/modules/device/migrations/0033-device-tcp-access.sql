-- TCP access per device (server/contract/tcp-device.ts): its own registration string (format and
-- value as entered, normalized) with the bytes a DTU sends as hex, which the TCP access server looks
-- up and which must be unique; and the Modbus TCP target the gateway dials.
ALTER TABLE device ADD COLUMN registration_format TEXT;
ALTER TABLE device ADD COLUMN registration_value TEXT;
ALTER TABLE device ADD COLUMN registration_hex TEXT;
ALTER TABLE device ADD COLUMN modbus_host TEXT;
ALTER TABLE device ADD COLUMN modbus_port INTEGER;
CREATE UNIQUE INDEX device_registration_hex ON device(registration_hex) WHERE registration_hex IS NOT NULL;
