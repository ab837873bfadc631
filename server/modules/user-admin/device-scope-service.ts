/**
 * Organization scoping in one place: which devices a caller may see (server/lib/device-scope.ts).
 * The access hook builds the request's scope with `scopeOf` and answers 404 for a route's device
 * outside it (`visible`); lists pass the scope to their queries; the websocket checks every device
 * a subscription names. Modules with device-bound data (alarms, history) use the same two calls.
 */
import { roleIsScoped } from '../../contract/permissions.ts';
import type { AuthUser } from '../../core.ts';
import { inScope, type DeviceScope, type ProductScope } from '../../lib/device-scope.ts';
import { notFound } from '../../lib/field-errors.ts';
import type { AccountService } from '../auth/account-service.ts';
import type { DeviceService } from '../device/device-service.ts';
import type { OrganizationService } from '../organization/organization-service.ts';
import type { MembershipRepository } from './membership-repository.ts';

export interface DeviceScopeDeps {
  accounts: Pick<AccountService, 'allIds' | 'findById'>;
  memberships: MembershipRepository;
  organizations: Pick<OrganizationService, 'subtreeIds'>;
  devices: Pick<DeviceService, 'get' | 'productIdsIn'>;
}

export class DeviceScopeService {
  constructor(private readonly deps: DeviceScopeDeps) {}

  /** Null (every device) for roles that administer the gateway; a customer's organizations and those below. */
  scopeOf(user: Pick<AuthUser, 'id' | 'role'>): DeviceScope {
    if (!roleIsScoped(user.role)) return null;
    const ids = new Set<string>();
    for (const orgId of this.deps.memberships.organizationIdsOf(user.id)) {
      for (const id of this.deps.organizations.subtreeIds(orgId)) ids.add(id);
    }
    return { organizationIds: [...ids] };
  }

  /**
   * The users who may see what belongs to a device of `organizationId` (null: a device in no
   * organization, or no device): every unscoped user, and the scoped ones whose scope holds it.
   * Alarm notifications go to these only, so a customer's bell never names another's device.
   */
  usersSeeing(organizationId: string | null): string[] {
    return this.deps.accounts.allIds().filter((id) => {
      const user = this.deps.accounts.findById(id);
      return user !== undefined && inScope(this.scopeOf(user), organizationId);
    });
  }

  /** The products the devices of `scope` use (null scope: every product). */
  productScopeOf(scope: DeviceScope): ProductScope {
    return scope === null ? null : { productIds: this.deps.devices.productIdsIn(scope.organizationIds) };
  }

  /**
   * Whether the caller may see device `deviceId`. A device that does not exist counts as visible,
   * so the route answers its own 404 (the same answer a hidden device gets).
   */
  visible(scope: DeviceScope, deviceId: string): boolean {
    if (scope === null) return true;
    let organizationId: string | null;
    try {
      organizationId = this.deps.devices.get(deviceId).organizationId ?? null;
    } catch {
      return true;
    }
    return inScope(scope, organizationId);
  }

  /** 404 code 32, as for a device that does not exist: a hidden device's existence is not confirmed. */
  assertVisible(scope: DeviceScope, deviceId: string): void {
    if (!this.visible(scope, deviceId)) throw notFound();
  }
}
