-- Issue 4: when a device acknowledged a command (MQTT PUBACK of a QoS 1 RPC request, or an HTTP
-- poll that handed the request over), and why a client attribute did not fit the published thing
-- model (stored flagged, never dropped, as telemetry is). 0007 is taken by the telemetry work.
-- Forward only: a shipped migration is never edited.

ALTER TABLE device_command ADD COLUMN delivered_time INTEGER;

ALTER TABLE attribute_kv ADD COLUMN flag TEXT;
