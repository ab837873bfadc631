/**
 * Accounts an administrator manages, their organization memberships, and organization scoping:
 * `deviceScopes` tells the access hook, lists and the websocket which devices a caller may see.
 */
import { defineModule } from '../../module.ts';
import { DeviceScopeService } from './device-scope-service.ts';
import { MembershipRepository } from './membership-repository.ts';
import m0027 from './migrations/0027-user-organization.sql';
import { registerUserAdminRoutes } from './user-admin-routes.ts';
import { UserAdminService } from './user-admin-service.ts';

declare module '../../module.ts' {
  interface Services {
    userAdmin: UserAdminService;
    /** Organization scoping (server/lib/device-scope.ts): for every module with device-bound data. */
    deviceScopes: DeviceScopeService;
  }
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** A user's organizations were set again: their open websockets are scoped anew. */
    'user.membershipChanged': { userId: string };
  }
}

export const userAdminModule = defineModule({
  name: 'user-admin',
  needs: ['accounts', 'organizations', 'devices'],
  migrations: [{ name: '0027-user-organization', sql: m0027 }],
  apiTags: { 'user-admin': 'Accounts, roles and organization membership (System → User); own permissions' },
  build: ({ core, services: { accounts, organizations, devices } }) => {
    const memberships = new MembershipRepository(core.db);
    return {
      userAdmin: new UserAdminService({ core, accounts, organizations, memberships }),
      deviceScopes: new DeviceScopeService({ accounts, memberships, organizations, devices }),
    };
  },
  routes: registerUserAdminRoutes,
});
