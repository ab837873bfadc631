-- Who issued a command other than a user's call: a scene's DEVICE_OUT action, as JSON
-- { type: 'SCENE_LINKAGE', id, name } (server/contract/command.ts, CommandSource); NULL for users.
-- Forward only: a shipped migration is never edited.

ALTER TABLE device_command ADD COLUMN source TEXT;
