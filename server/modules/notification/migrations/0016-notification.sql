-- Notifications to users (server/contract/notification.ts): one row per user and message.
-- Forward only: a shipped migration is never edited.

CREATE TABLE notification (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
  type TEXT NOT NULL,                      -- ALARM | GENERAL
  subject TEXT NOT NULL,
  text TEXT,
  info TEXT NOT NULL,                      -- JSON: NotificationInfo
  status TEXT NOT NULL,                    -- SENT | READ
  create_time INTEGER NOT NULL
);
CREATE INDEX notification_user_time ON notification(user_id, create_time);
CREATE INDEX notification_user_unread ON notification(user_id, status);
