-- Notices and each receiver's read state (server/contract/notice.ts).
CREATE TABLE notice (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL,               -- MEETING | NOTICE
  title TEXT NOT NULL,
  content TEXT NOT NULL,            -- sanitized HTML
  status TEXT NOT NULL,             -- DRAFT | PUBLISHED
  receiver_type TEXT NOT NULL,      -- ALL | ORGANIZATION | DEPARTMENT | INDIVIDUAL
  receiver_ids TEXT NOT NULL,       -- JSON array of organization or user ids
  created_by TEXT,                  -- user id; kept when the user is deleted
  create_time INTEGER NOT NULL,
  update_time INTEGER NOT NULL,
  publish_time INTEGER
);
CREATE INDEX notice_status_time ON notice(status, create_time);

-- One row per receiver, written when the notice is published.
CREATE TABLE notice_receipt (
  id TEXT PRIMARY KEY,              -- notice id + ':' + user id
  notice_id TEXT NOT NULL REFERENCES notice(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
  read_time INTEGER
);
CREATE INDEX notice_receipt_user ON notice_receipt(user_id, read_time);
CREATE INDEX notice_receipt_notice ON notice_receipt(notice_id);
