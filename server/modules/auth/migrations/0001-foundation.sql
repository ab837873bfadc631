-- Foundation: settings (key/value, also holds the licence and cloud configuration), users,
-- refresh tokens, uploaded files. Forward only: a shipped migration is never edited.

CREATE TABLE setting (
  id TEXT PRIMARY KEY,            -- the setting's key, e.g. 'license', 'cloud', 'platform'
  value TEXT NOT NULL,            -- JSON
  updated_time INTEGER NOT NULL
);

CREATE TABLE user (
  id TEXT PRIMARY KEY,
  username TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT NOT NULL,    -- scrypt$N$r$p$salt$hash
  role TEXT NOT NULL,
  real_name TEXT NOT NULL,
  phone_number TEXT,
  email TEXT,
  avatar TEXT,
  -- Bumped on password change: access tokens carry it, so older ones stop working at once.
  token_version INTEGER NOT NULL DEFAULT 0,
  create_time INTEGER NOT NULL,
  update_time INTEGER NOT NULL
);

CREATE TABLE refresh_token (
  id TEXT PRIMARY KEY,            -- sha256 of the token; the token itself is never stored
  user_id TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
  expires_time INTEGER NOT NULL,
  create_time INTEGER NOT NULL
);
CREATE INDEX refresh_token_user ON refresh_token(user_id);

CREATE TABLE oss_file (
  id TEXT PRIMARY KEY,            -- sha256 hex + '.' + extension
  size INTEGER NOT NULL,
  mime TEXT NOT NULL,
  create_time INTEGER NOT NULL
);
