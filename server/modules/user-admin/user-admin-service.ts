/**
 * Accounts as an administrator manages them (server/contract/user-admin.ts): list, create, edit,
 * disable, delete, password reset and organization membership. At least one enabled SYS_ADMIN
 * always remains; disabling, deleting or re-roling an account ends its sessions at once
 * (server/modules/auth/account-service.ts).
 */
import type { DeleteResult } from '../../contract/common.ts';
import { ErrorCode } from '../../contract/errors.ts';
import { permissionsOf } from '../../contract/permissions.ts';
import type { ManagedUser, MyPermissions, UserCreateBody, UserListQuery, UserUpdateBody } from '../../contract/user-admin.ts';
import type { AuthUser, Core } from '../../core.ts';
import { transaction } from '../../db/sqlite.ts';
import { AppError } from '../../lib/app-error.ts';
import { notFound } from '../../lib/field-errors.ts';
import { hashPassword, meetsPasswordPolicy } from '../../lib/password.ts';
import type { AccountService, UserRow } from '../auth/account-service.ts';
import type { OrganizationService } from '../organization/organization-service.ts';
import type { MembershipRepository } from './membership-repository.ts';

export interface UserAdminDeps {
  core: Core;
  accounts: AccountService;
  organizations: Pick<OrganizationService, 'exists'>;
  memberships: MembershipRepository;
}

function toManaged(user: UserRow, organizationIds: string[]): ManagedUser {
  return {
    id: user.id,
    username: user.username,
    realName: user.realName,
    role: user.role,
    organizationIds,
    enabled: user.enabled,
    mustChangePassword: user.mustChangePassword,
    createTime: user.createTime,
  };
}

function lastAdmin(): AppError {
  return new AppError(ErrorCode.VERSION_CONFLICT, 'error.userAdmin.lastAdmin', {}, { status: 409 });
}

async function policyHash(password: string, field: string): Promise<string> {
  if (!meetsPasswordPolicy(password)) {
    throw new AppError(ErrorCode.PASSWORD_POLICY, 'error.password.policy', {}, {
      details: [{ field, key: 'error.password.policy', message: 'does not meet the password policy' }],
    });
  }
  return hashPassword(password);
}

export class UserAdminService {
  constructor(private readonly deps: UserAdminDeps) {}

  myPermissions(caller: AuthUser): MyPermissions {
    const user = this.deps.accounts.findById(caller.id);
    return { role: caller.role, permissions: permissionsOf(caller.role), mustChangePassword: user?.mustChangePassword ?? false };
  }
  /** The users of any of these organizations. */
  memberIdsOf(organizationIds: readonly string[]): string[] {
    return this.deps.memberships.memberIdsOf(organizationIds);
  }

  /** Sets a user's organizations (a cloud customer's is the organization named like its customer). */
  setMemberships(userId: string, organizationIds: readonly string[]): void {
    this.deps.memberships.replace(userId, organizationIds);
    this.deps.core.bus.emit('user.membershipChanged', { userId });
  }


  page(query: UserListQuery): { items: ManagedUser[]; total: number } {
    const { items, total } = this.deps.accounts.page(query);
    const orgs = this.deps.memberships.organizationIdsOfMany(items.map((u) => u.id));
    return { items: items.map((u) => toManaged(u, orgs.get(u.id) ?? [])), total };
  }

  async create(body: UserCreateBody): Promise<ManagedUser> {
    this.checkFields(body, undefined);
    const passwordHash = await policyHash(body.password, 'body.password');
    const user = transaction(this.deps.core.db, () => {
      // Checked again after hashing: another create of the same name may have landed meanwhile.
      this.checkFields(body, undefined);
      const created = this.deps.accounts.create({
        username: body.username,
        realName: body.realName.trim(),
        role: body.role,
        enabled: body.enabled,
        passwordHash,
      });
      this.deps.memberships.replace(created.id, body.organizationIds);
      return created;
    });
    return this.get(user.id);
  }

  async update(body: UserUpdateBody): Promise<ManagedUser> {
    const current = this.deps.accounts.findById(body.id);
    if (!current) throw notFound();
    this.checkFields(body, body.id);
    const passwordHash = body.password ? await policyHash(body.password, 'body.password') : null;
    transaction(this.deps.core.db, () => {
      const stillAdmin = body.role === 'SYS_ADMIN' && body.enabled;
      if (!stillAdmin && this.deps.accounts.enabledAdminIds().every((id) => id === body.id)) throw lastAdmin();
      this.deps.accounts.updateAccount(body.id, { username: body.username, realName: body.realName.trim(), role: body.role, enabled: body.enabled });
      this.deps.memberships.replace(body.id, body.organizationIds);
      if (passwordHash) this.deps.accounts.resetPassword(body.id, passwordHash);
    });
    this.deps.core.bus.emit('user.membershipChanged', { userId: body.id });
    return this.get(body.id);
  }

  async resetPassword(id: string, password: string): Promise<void> {
    if (!this.deps.accounts.findById(id)) throw notFound();
    this.deps.accounts.resetPassword(id, await policyHash(password, 'body.password'));
  }

  delete(ids: readonly string[]): DeleteResult {
    return transaction(this.deps.core.db, () => {
      const gone = new Set(ids);
      if (this.deps.accounts.enabledAdminIds().every((id) => gone.has(id))) throw lastAdmin();
      let deleted = 0;
      for (const id of gone) {
        if (!this.deps.accounts.findById(id)) continue;
        this.deps.accounts.delete(id);
        deleted += 1;
      }
      return { deleted };
    });
  }

  private get(id: string): ManagedUser {
    const user = this.deps.accounts.findById(id);
    if (!user) throw notFound();
    return toManaged(user, this.deps.memberships.organizationIdsOf(id));
  }

  private checkFields(body: Pick<UserCreateBody, 'username' | 'organizationIds'>, selfId: string | undefined): void {
    const owner = this.deps.accounts.findByUsername(body.username);
    if (owner && owner.id !== selfId) {
      throw new AppError(ErrorCode.INVALID_ARGUMENTS, 'error.userAdmin.usernameTaken', {}, {
        details: [{ field: 'body.username', key: 'error.userAdmin.usernameTaken', message: 'is taken' }],
      });
    }
    const missing = body.organizationIds.find((id) => !this.deps.organizations.exists(id));
    if (missing !== undefined) {
      throw new AppError(ErrorCode.INVALID_ARGUMENTS, 'error.userAdmin.organizationNotFound', {}, {
        details: [{ field: 'body.organizationIds', key: 'error.userAdmin.organizationNotFound', message: `${missing} does not exist` }],
      });
    }
  }
}
