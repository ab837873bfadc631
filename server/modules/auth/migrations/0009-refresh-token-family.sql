-- Refresh-token families: every token rotated from one sign-in carries that sign-in's family, and
-- a rotated token is kept (used_time set) until it expires instead of being deleted, so presenting
-- it again is recognised as a replay and ends the whole family. Rebuilt rather than altered so
-- family_id can be NOT NULL without a default. Tokens issued before this each start a family of
-- their own (their own id). Forward only: a shipped migration is never edited.

CREATE TABLE refresh_token_next (
  id TEXT PRIMARY KEY,            -- sha256 of the token; the token itself is never stored
  user_id TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
  family_id TEXT NOT NULL,        -- the sign-in the token descends from
  expires_time INTEGER NOT NULL,
  used_time INTEGER,              -- when it was rotated; NULL while it is the family's live token
  create_time INTEGER NOT NULL
);
INSERT INTO refresh_token_next (id, user_id, family_id, expires_time, used_time, create_time)
  SELECT id, user_id, id, expires_time, NULL, create_time FROM refresh_token;
DROP TABLE refresh_token;
ALTER TABLE refresh_token_next RENAME TO refresh_token;
CREATE INDEX refresh_token_user ON refresh_token(user_id);
CREATE INDEX refresh_token_family_id ON refresh_token(family_id);
