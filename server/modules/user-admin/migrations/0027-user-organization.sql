-- Which organizations a user belongs to. A customer sees the devices of these organizations and
-- of the organizations below them (server/modules/user-admin/device-scope-service.ts).
CREATE TABLE user_organization (
  id TEXT PRIMARY KEY,            -- user_id || ':' || organization_id
  user_id TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
  organization_id TEXT NOT NULL REFERENCES organization(id) ON DELETE CASCADE,
  UNIQUE (user_id, organization_id)
);
CREATE INDEX user_organization_organization ON user_organization(organization_id);
