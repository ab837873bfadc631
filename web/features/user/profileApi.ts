/** The signed-in user's own account: profile edit, password change, avatar upload. */
import { userRoutes, type ProfileBody, type ResetPasswordBody, type UserInfo } from '../../../server/contract/user.ts';
import { api } from '../../lib/api-client.ts';

/** Forms show these failures next to their fields, so the calls are silent. */
export function updateProfile(body: ProfileBody): Promise<UserInfo> {
  return api(userRoutes.updateProfile, { body, silent: true });
}

export function changePassword(body: ResetPasswordBody): Promise<unknown> {
  return api(userRoutes.resetPassword, { body, silent: true });
}

