-- Who uploaded each stored file. The store is content-addressed, so one file may have several
-- uploaders; each holds it until they delete it, and the file goes when the last one has. Files
-- uploaded before this table have no owner: only a holder of oss:manage deletes them.
CREATE TABLE oss_file_owner (
  id TEXT PRIMARY KEY,
  file_id TEXT NOT NULL REFERENCES oss_file (id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  create_time INTEGER NOT NULL,
  UNIQUE (file_id, user_id)
);
CREATE INDEX oss_file_owner_user ON oss_file_owner (user_id);
