-- Who did what, when, from where (server/contract/audit-log.ts). Pruned by age and row count.
CREATE TABLE audit_log (
  id TEXT PRIMARY KEY,
  time INTEGER NOT NULL,
  user_id TEXT,                     -- no foreign key: rows outlive the user
  username TEXT,
  action TEXT NOT NULL,
  summary TEXT,
  entity_id TEXT,
  status_code INTEGER,
  source_address TEXT NOT NULL
);
CREATE INDEX audit_log_time ON audit_log(time);
CREATE INDEX audit_log_user_time ON audit_log(user_id, time);
