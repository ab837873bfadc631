-- Each user's console settings as JSON (server/contract/user-settings.ts).
CREATE TABLE user_setting (
  id TEXT PRIMARY KEY REFERENCES user(id) ON DELETE CASCADE,  -- the user's id
  value TEXT NOT NULL,
  update_time INTEGER NOT NULL
);
