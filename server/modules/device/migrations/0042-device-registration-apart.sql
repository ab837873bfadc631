-- A device of a TCP product without its own registration string used to register with its access
-- token, which works on MQTT and HTTP as well. New devices get a registration code of their own
-- (registration-code.ts); this keeps existing DTUs working: each such device is given its token's
-- bytes as its own registration, so what the DTU sends still identifies it, and from now on the
-- token and the registration change apart. The gateway warns at start while any device's
-- registration still equals its token (docs/SECURITY.md says how to separate them).
-- Only tokens that are valid registrations (1-64 printable ASCII bytes) not used by another device
-- are copied: no other token could have identified a DTU (longer ones never matched, and a taken one
-- was ambiguous).
UPDATE device
SET registration_format = 'ASCII',
    registration_value = c.credentials_id,
    registration_hex = hex(c.credentials_id)
FROM device_credentials c
WHERE c.device_id = device.id
  AND c.credentials_type = 'ACCESS_TOKEN'
  AND device.registration_hex IS NULL
  AND device.device_profile_id IN (SELECT id FROM device_profile WHERE transport_type = 'TCP')
  AND length(c.credentials_id) BETWEEN 1 AND 64
  AND c.credentials_id NOT GLOB '*[^ -~]*'
  AND NOT EXISTS (SELECT 1 FROM device o WHERE o.registration_hex = hex(c.credentials_id));
