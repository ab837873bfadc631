-- Device provisioning per product (server/contract/provisioning.ts): a switch and the key and
-- secret devices present. Stored as they are: the console shows them to the administrator and the
-- provision request compares them. The key finds the product, so it is unique.
ALTER TABLE device_profile ADD COLUMN provision_enabled INTEGER NOT NULL DEFAULT 0;
ALTER TABLE device_profile ADD COLUMN provision_key TEXT;
ALTER TABLE device_profile ADD COLUMN provision_secret TEXT;
CREATE UNIQUE INDEX device_profile_provision_key ON device_profile(provision_key) WHERE provision_key IS NOT NULL;
