import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../server/config.ts';
import { roleForCloudAuthority, tbAuthorityOf } from '../../server/modules/cloud-account/authority.ts';
import { tenantIdOf } from '../../server/modules/cloud-account/tb-user.ts';

describe('cloud authorities and local roles', () => {
  it('lets only tenant administrators and customer users of the cloud sign in, with the same role', () => {
    expect(roleForCloudAuthority('TENANT_ADMIN')).toBe('TENANT_ADMIN');
    expect(roleForCloudAuthority('CUSTOMER_USER')).toBe('CUSTOMER_USER');
    for (const other of ['SYS_ADMIN', 'REFRESH_TOKEN', 'PRE_VERIFICATION_TOKEN', 'PLATFORM_ADMIN', 'tenant_admin', '']) {
      expect(roleForCloudAuthority(other), other).toBeNull();
    }
  });

  it('shows PLATFORM_ADMIN as a tenant administrator to ThingsBoard clients', () => {
    expect(tbAuthorityOf('SYS_ADMIN')).toBe('SYS_ADMIN');
    expect(tbAuthorityOf('PLATFORM_ADMIN')).toBe('TENANT_ADMIN');
    expect(tbAuthorityOf('TENANT_ADMIN')).toBe('TENANT_ADMIN');
    expect(tbAuthorityOf('CUSTOMER_USER')).toBe('CUSTOMER_USER');
  });

  it('derives one stable tenant UUID per install key', () => {
    const a = tenantIdOf(Buffer.from('key-a'));
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(tenantIdOf(Buffer.from('key-a'))).toBe(a);
    expect(tenantIdOf(Buffer.from('key-b'))).not.toBe(a);
  });

  it('reads --cloud-offline-days (default 30) and refuses a value that is not a whole number of days', () => {
    expect(loadConfig([], {}).config.cloudOfflineDays).toBe(30);
    expect(loadConfig(['--cloud-offline-days', '7'], {}).config.cloudOfflineDays).toBe(7);
    expect(loadConfig([], { EDGE_CLOUD_OFFLINE_DAYS: '0' }).config.cloudOfflineDays).toBe(0);
    expect(() => loadConfig(['--cloud-offline-days', '-1'], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--cloud-offline-days=1.5'], {})).toThrow(/not a whole number of days/);
  });
});
