-- Who issued a command: a console user (or an API client) or the cloud (an RPC over the cloud link).
ALTER TABLE device_command ADD COLUMN source TEXT NOT NULL DEFAULT 'USER';
