/**
 * Session calls over the contract: sign in, load user and platform info, sign out, and the
 * first-boot state that the sign-in pages (login, expired licence) and the wizard read.
 */
import { authRoutes } from '../../../server/contract/auth.ts';
import { userRoutes } from '../../../server/contract/user.ts';
import { platformRoutes } from '../../../server/contract/platform.ts';
import { licenseRoutes, type SetupState } from '../../../server/contract/license.ts';
import type { UserInfo } from '../../../server/contract/user.ts';
import type { PlatformInfo } from '../../../server/contract/platform.ts';
import { api } from '../../lib/api-client.ts';
import { sessionActions } from '../../stores/session.ts';
import { loadPermissions } from '../../stores/permissions.ts';

/** Sign-in: log in, store the tokens, fetch the user info and store it. */
export async function signIn(username: string, password: string, remember: boolean): Promise<UserInfo> {
  const pair = await api(authRoutes.login, { body: { username, password }, silent: true });
  sessionActions.setTokens(pair, remember);
  const [user] = await Promise.all([loadUser(), loadPermissions()]);
  return user;
}

export async function loadUser(): Promise<UserInfo> {
  const user = await api(userRoutes.me);
  sessionActions.setUser(user);
  return user;
}

export async function loadPlatform(): Promise<PlatformInfo> {
  const platform = await api(platformRoutes.info, { silent: true });
  sessionActions.setPlatform(platform);
  return platform;
}

/** Revokes the session on the server (best effort) and clears it locally. */
export async function signOut(): Promise<void> {
  try {
    await api(authRoutes.logout, { silent: true });
  } finally {
    sessionActions.reset();
  }
}

/** Whether an administrator exists and a licence is installed; public, read before signing in. */
export function loadSetupState(): Promise<SetupState> {
  return api(licenseRoutes.setupState, { silent: true });
}
