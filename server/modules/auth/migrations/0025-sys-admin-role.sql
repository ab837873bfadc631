-- Roles now gate routes (server/contract/permissions.ts). Until now the administrator created at
-- first boot was stored as TENANT_ADMIN, and was the only account: the first one becomes the
-- super administrator, who holds every permission.
UPDATE user SET role = 'SYS_ADMIN'
WHERE id = (SELECT id FROM user WHERE role = 'TENANT_ADMIN' ORDER BY create_time, rowid LIMIT 1);
