import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PERMISSIONS_DOC, renderPermissionsDoc } from '../../scripts/lib/permissions-doc.ts';
import { permissionsOf, roleHolds } from '../../server/contract/permissions.ts';

describe('the role × permission table', () => {
  it('is written in docs/PERMISSIONS.md as the table says (run npx tsx scripts/permissions-doc.ts)', () => {
    expect(readFileSync(PERMISSIONS_DOC, 'utf8')).toBe(renderPermissionsDoc());
  });

  it('gives SYS_ADMIN everything, and customers no account or edit rights', () => {
    expect(roleHolds('SYS_ADMIN', 'user:create')).toBe(true);
    expect(roleHolds('SYS_ADMIN', 'thing:unknown')).toBe(false);
    expect(permissionsOf('CUSTOMER_USER')).not.toContain('device:update');
    expect(roleHolds('TENANT_ADMIN', 'user:list')).toBe(false);
    expect(roleHolds('PLATFORM_ADMIN', 'system:reset')).toBe(true);
  });
});
