-- The call's operationId (server/contract/route.ts, operationIdOf): the key of its description in
-- the locale files. Rows written before it stay NULL and keep their English summary.
ALTER TABLE audit_log ADD COLUMN operation TEXT;
