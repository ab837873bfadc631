/** Account administration calls over the contract (server/contract/user-admin.ts). Saves are silent: the drawer shows failures on their fields. */
import type { DeleteResult } from '../../../server/contract/common.ts';
import {
  userAdminRoutes,
  type ManagedUser,
  type UserCreateBody,
  type UserUpdateBody,
} from '../../../server/contract/user-admin.ts';
import { api } from '../../lib/api-client.ts';

export function createUser(body: UserCreateBody): Promise<ManagedUser> {
  return api(userAdminRoutes.create, { body, silent: true });
}

export function updateUser(body: UserUpdateBody): Promise<ManagedUser> {
  return api(userAdminRoutes.update, { body, silent: true });
}

export function deleteUsers(ids: string[]): Promise<DeleteResult> {
  return api(userAdminRoutes.delete, { body: { ids } });
}

export function resetUserPassword(id: string, password: string): Promise<unknown> {
  return api(userAdminRoutes.resetPassword, { body: { id, password }, silent: true });
}
