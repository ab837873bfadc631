/**
 * Which devices a caller may see: the organizations a customer belongs to and every organization
 * below them, or null for a role that sees every device (server/contract/permissions.ts,
 * roleIsScoped). Built on first read per request by the access hook (server/plugins/access.ts) from
 * server/modules/user-admin/device-scope-service.ts; lists filter by it, and a device outside it is
 * answered 404 as if it did not exist.
 */
import type { Device, DeviceListQuery, DevicePage } from '../contract/device.ts';

export type DeviceScope = { readonly organizationIds: readonly string[] } | null;

/**
 * The device reads of one caller's scope (DeviceService.within): a device outside the scope is
 * answered as one that does not exist, and lists hold only the devices within it.
 */
export interface ScopedDevices {
  readonly scope: DeviceScope;
  /** Throws AppError not found for a device that does not exist or is outside the scope. */
  get(id: string): Device;
  exists(id: string): boolean;
  page(query: DeviceListQuery): DevicePage;
  /** How many devices the scope holds. */
  count(): number;
}

/** Whether a device of `organizationId` (null: in no organization) is within `scope`. */
export function inScope(scope: DeviceScope, organizationId: string | null): boolean {
  return scope === null || (organizationId !== null && scope.organizationIds.includes(organizationId));
}

/**
 * The organizations a filter may match within `scope`: the ones asked for that are in it, or all
 * of the scope's when none were asked for (null scope: the filter as asked).
 */
export function organizationsWithin(scope: DeviceScope, asked: readonly string[] | undefined): readonly string[] | undefined {
  if (scope === null) return asked;
  return asked ? asked.filter((id) => scope.organizationIds.includes(id)) : scope.organizationIds;
}

/**
 * Which products a caller may see: for a scoped caller, the products at least one device of their
 * scope uses (as a ThingsBoard customer sees only what is assigned to them); null: every product.
 * A product outside it is answered 404, like a device outside the device scope.
 */
export type ProductScope = { readonly productIds: readonly string[] } | null;

export function productInScope(scope: ProductScope, productId: string): boolean {
  return scope === null || scope.productIds.includes(productId);
}
