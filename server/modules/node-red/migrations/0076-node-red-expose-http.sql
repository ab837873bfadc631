-- Soft gateway: whether an instance's HTTP-in nodes are reachable through the gateway without the
-- console's sign-in (/soft-gateway/node-red/{id}/http/…). Off unless an administrator turns it on.
ALTER TABLE node_red_instance ADD COLUMN expose_http INTEGER NOT NULL DEFAULT 0;
