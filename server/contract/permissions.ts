/**
 * The one table of permissions: every permission string a route or a console entry may name, and
 * the roles that hold it. The access hook (server/plugins/access.ts) checks a signed-in caller's
 * role against it; a route naming a string missing here stops the start. The console reads the
 * caller's list (`GET /api/yt/user/me/permissions`) to hide menu entries and buttons, and
 * docs/PERMISSIONS.md is generated from it (scripts/permissions-doc.ts).
 *
 * SYS_ADMIN holds every permission. The other roles follow the spec's enabled and disabled lists
 * (docs/PERMISSIONS.md says which list each grant comes from).
 */
import type { Role } from './user.ts';

/** Roles other than SYS_ADMIN, which holds everything. */
type GrantedRole = Exclude<Role, 'SYS_ADMIN'>;

interface PermissionEntry {
  /** Roles besides SYS_ADMIN that hold the permission. */
  roles: readonly GrantedRole[];
  /** The module has no screen on a gateway; the string exists for a cloud-side back-end menu. */
  cloudSide?: true;
}

const P: GrantedRole = 'PLATFORM_ADMIN';
const T: GrantedRole = 'TENANT_ADMIN';
const C: GrantedRole = 'CUSTOMER_USER';

const everyone = { roles: [P, T, C] } as const;
const tenantAndCustomer = { roles: [T, C] } as const;
const tenant = { roles: [T] } as const;
const platform = { roles: [P] } as const;
const platformAndTenant = { roles: [P, T] } as const;
const sysAdminOnly = { roles: [] } as const;

export const permissionTable = {
  // Own account, every role.
  'personal:center': everyone,
  'personal:settings': everyone,
  'notice:me': everyone,
  'dashboard:view': everyone,
  'notification:view': everyone,

  // Devices: customers read the devices of their organizations (organization scoping applies).
  'device:list': tenantAndCustomer,
  'device:view': tenantAndCustomer,
  'device:telemetry': tenantAndCustomer,
  'device:event': tenantAndCustomer,
  'device:create': tenant,
  'device:update': tenant,
  'device:delete': tenant,
  'device:import': tenant,
  'device:attributes': tenant,
  'device:command': tenant,
  'device:credentials:view': tenant,
  // Device access information add/edit/delete is on the tenant administrator's disabled list.
  'device:credentials:update': sysAdminOnly,
  'device_access:view': tenant,
  'device:modbus:view': tenantAndCustomer,
  'device:modbus:read': tenant,
  'device:modbus:write': tenant,

  // Products and thing models: customers read them to show their devices' data.
  'device_profile:list': tenantAndCustomer,
  'device_profile:view': tenantAndCustomer,
  'device_profile:create': tenant,
  'device_profile:update': tenant,
  'device_profile:delete': tenant,
  'device_profile:publish': tenant,
  'device_profile:modbus:export': tenant,
  'device_profile:modbus:import': tenant,
  'things_model:list': tenantAndCustomer,
  'things_model:create': tenant,
  'things_model:update': tenant,
  'things_model:delete': tenant,
  'things_model:publish': tenant,
  'things_model:import': tenant,

  // Product categories: the platform administrator's; the tenant reads them to pick one.
  'product_category:list': platformAndTenant,
  'product_category:view': platformAndTenant,
  'product_category:create': platform,
  'product_category:update': platform,
  'product_category:delete': platform,

  // Organizations: read by every role that sees devices (the tree filters the device list).
  'organization:list': everyone,
  'organization:view': everyone,
  'organization:create': platformAndTenant,
  'organization:update': platformAndTenant,
  'organization:delete': platformAndTenant,

  // Rule engine and alarms; customers run hand-triggered scenes marked for them.
  'scene_linkage:list': tenantAndCustomer,
  'scene_linkage:view': tenantAndCustomer,
  'scene_linkage:create': tenant,
  'scene_linkage:update': tenant,
  'scene_linkage:delete': tenant,
  'scene_linkage:execute': tenantAndCustomer,
  'alarm:list': tenantAndCustomer,
  'alarm:view': tenantAndCustomer,
  'alarm:handle': tenantAndCustomer,

  // Notices: platform notices and tenant notices.
  'notice:list': platformAndTenant,
  'notice:create': platformAndTenant,
  'notice:update': platformAndTenant,
  'notice:delete': platformAndTenant,
  'notice:publish': platformAndTenant,

  // Accounts and roles: the super administrator's alone.
  'user:list': sysAdminOnly,
  'user:create': sysAdminOnly,
  'user:update': sysAdminOnly,
  'user:delete': sysAdminOnly,
  'user:reset_password': sysAdminOnly,
  'role:list': sysAdminOnly,
  'audit_log:list': platform,

  // Edge and system: settings are off the tenant's list; factory reset and app info are the platform's.
  'edge:state': platformAndTenant,
  'edge:secret:view': sysAdminOnly,
  'edge:cloud_event:list': platformAndTenant,
  'edge:cloud_event:retry': platform,
  'system:config': sysAdminOnly,
  'system:network': sysAdminOnly,
  'system:firmware': sysAdminOnly,
  'system:reset': platform,
  'platform:info:update': platform,
  'license:view': platform,
  'license:upload': platform,
  'oss:upload': everyone,
  'oss:delete': platformAndTenant,
  // Deleting any user's upload, not only one's own (server/modules/oss/oss-service.ts).
  'oss:manage': sysAdminOnly,
  'map:view': everyone,
  'soft_gateway:manage': tenant,
  'video:view': tenantAndCustomer,
  'video:manage': tenant,
  'visualization:manage': tenant,

  // No screen on a gateway: kept for a cloud-side back-end menu.
  'tenant:list': { roles: [P], cloudSide: true },
  'tenant:role': { roles: [P], cloudSide: true },
  'dictionary:manage': { roles: [], cloudSide: true },
  'menu:manage': { roles: [], cloudSide: true },
  'feedback:manage': { roles: [P], cloudSide: true },
  'dataview:manage': { roles: [T], cloudSide: true },
  'large_screen:design': { roles: [T], cloudSide: true },
  'message_platform:manage': { roles: [P], cloudSide: true },
} as const satisfies Record<string, PermissionEntry>;

export type Permission = keyof typeof permissionTable;

export const permissions = Object.keys(permissionTable) as Permission[];

export function isPermission(value: string): value is Permission {
  return Object.hasOwn(permissionTable, value);
}

/** Whether `role` holds `permission`; false for a string the table does not know. */
export function roleHolds(role: Role, permission: string): boolean {
  if (!isPermission(permission)) return false;
  if (role === 'SYS_ADMIN') return true;
  return (permissionTable[permission].roles as readonly Role[]).includes(role);
}

/** Every permission `role` holds, in table order. */
export function permissionsOf(role: Role): Permission[] {
  return permissions.filter((p) => roleHolds(role, p));
}

/**
 * Only customers are limited to the devices of their organizations (and those below); the other
 * roles administer the whole gateway.
 */
export function roleIsScoped(role: Role): boolean {
  return role === 'CUSTOMER_USER';
}
