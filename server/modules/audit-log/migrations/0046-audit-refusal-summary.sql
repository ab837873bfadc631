-- Refused sign-ins become one counted row per typed account, source address and window
-- (`window_start`, null on every other row) instead of a row per attempt, and they are pruned
-- under their own cap (audit-log-service.ts): anonymous attempts never evict signed-in users' rows.
ALTER TABLE audit_log ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;
ALTER TABLE audit_log ADD COLUMN window_start INTEGER;
CREATE UNIQUE INDEX audit_log_refusal_window ON audit_log(action, username, source_address, window_start) WHERE window_start IS NOT NULL;
