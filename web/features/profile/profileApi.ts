/** The signed-in user's own account: profile edit, password change, avatar upload. */
import { ossRoutes } from '../../../server/contract/oss.ts';
import { userRoutes, type ProfileBody, type ResetPasswordBody, type UserInfo } from '../../../server/contract/user.ts';
import { api } from '../../lib/api-client.ts';

/** Forms show these failures next to their fields, so the calls are silent. */
export function updateProfile(body: ProfileBody): Promise<UserInfo> {
  return api(userRoutes.updateProfile, { body, silent: true });
}

export function changePassword(body: ResetPasswordBody): Promise<unknown> {
  return api(userRoutes.resetPassword, { body, silent: true });
}

/** Stores an image on the gateway and returns the address to keep (`fileStaticUri`). */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file, file.name);
  const { fileStaticUri } = await api(ossRoutes.upload, { form });
  return fileStaticUri;
}
