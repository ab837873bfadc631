-- Local users signed in with a cloud account: which cloud user they are, the role the cloud gave,
-- the organization of a customer user, and the salted verifier that lets the same credentials in
-- while the cloud is unreachable. The cloud password itself is never stored.
CREATE TABLE cloud_user_link (
  id TEXT PRIMARY KEY,            -- the local user's id
  user_id TEXT NOT NULL UNIQUE REFERENCES user(id) ON DELETE CASCADE,
  cloud_user_id TEXT NOT NULL,
  authority TEXT NOT NULL,        -- the cloud's authority at the last online check
  customer_title TEXT,            -- a customer user's customer, by title
  organization_id TEXT,           -- the local organization of that title, if one exists
  verifier TEXT,                  -- scrypt$N$r$p$salt$hash of the password; NULL once the cloud refused it
  last_online_check INTEGER NOT NULL
);
