/**
 * Users of each role, created through the account administration API by the signed-in
 * administrator and signed in, for permission and scoping tests.
 */
import { userAdminRoutes, type ManagedUser } from '../../server/contract/user-admin.ts';
import type { Role } from '../../server/contract/user.ts';
import { ContractClient, DeviceApi, uniqueName } from './devices.ts';
import { signIn } from './session.ts';

export const ROLE_PASSWORD = 'Role#Pass2024';

export interface RoleUser {
  user: ManagedUser;
  token: string;
  refreshToken: string;
  api: DeviceApi;
}

/** Creates a user of `role` (member of `organizationIds`) as `admin`, and signs them in. */
export async function createRoleUser(admin: ContractClient, role: Role, organizationIds: string[] = []): Promise<RoleUser> {
  const user = await admin.ok(userAdminRoutes.create, {
    body: { username: uniqueName(role.toLowerCase()), realName: role, role, organizationIds, enabled: true, password: ROLE_PASSWORD },
  });
  const { token, refreshToken } = await signIn(admin.app, user.username, ROLE_PASSWORD);
  return { user, token, refreshToken, api: new DeviceApi(admin.app, token) };
}
