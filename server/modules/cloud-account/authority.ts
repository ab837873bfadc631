/** Between ThingsBoard authorities and the gateway's roles, both ways. */
import type { TbAuthority } from '../../contract/auth.ts';
import type { Role } from '../../contract/user.ts';

/**
 * The local role a cloud account gets: the cloud's tenant administrator administers the gateway,
 * a customer user is a customer user; anyone else (the cloud's system administrator, a refresh
 * token's pseudo-authority, an unknown value) does not sign in here.
 */
export function roleForCloudAuthority(authority: string): Extract<Role, 'TENANT_ADMIN' | 'CUSTOMER_USER'> | null {
  if (authority === 'TENANT_ADMIN') return 'TENANT_ADMIN';
  if (authority === 'CUSTOMER_USER') return 'CUSTOMER_USER';
  return null;
}

/** The authority a ThingsBoard client sees for a local role: PLATFORM_ADMIN has no ThingsBoard twin and administers a tenant. */
export function tbAuthorityOf(role: Role): TbAuthority {
  if (role === 'SYS_ADMIN') return 'SYS_ADMIN';
  if (role === 'CUSTOMER_USER') return 'CUSTOMER_USER';
  return 'TENANT_ADMIN';
}
