/** The gateway's users in ThingsBoard's `User` shape, for `GET /api/auth/user`. */
import { createHash } from 'node:crypto';
import { TB_NULL_ID, type TbUser } from '../../contract/auth.ts';
import type { UserRow } from '../auth/account-service.ts';
import { tbAuthorityOf } from './authority.ts';
import type { CloudUserLink } from './cloud-user-link-repository.ts';

/**
 * The gateway is one tenant: its id is a UUID derived from the per-install key, stable across
 * restarts and different on every gateway, without revealing the key.
 */
export function tenantIdOf(installKey: Buffer): string {
  const hex = createHash('sha256').update('edge-console tenant id\0').update(installKey).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** `link` is the cloud link of a cloud-account user: a customer user's organization is its customer. */
export function toTbUser(user: UserRow, link: CloudUserLink | undefined, tenantId: string): TbUser {
  const email = user.email ?? (user.username.includes('@') ? user.username : '');
  return {
    id: { entityType: 'USER', id: user.id },
    createdTime: user.createTime,
    tenantId: { entityType: 'TENANT', id: tenantId },
    customerId: { entityType: 'CUSTOMER', id: link?.organizationId ?? TB_NULL_ID },
    email,
    authority: tbAuthorityOf(user.role),
    firstName: user.realName || null,
    lastName: null,
    phone: user.phoneNumber,
    name: email || user.username,
    additionalInfo: {},
  };
}
