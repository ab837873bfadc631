/**
 * Who may open a websocket of the console (the live /api/ws and the video previews): a licence,
 * then a valid access token without a pending password change, the same rules as the HTTP access
 * hook. One function so the two sockets cannot drift apart.
 */
import type { ErrorKey } from '../contract/errors.ts';
import type { LicenseStatus } from '../contract/license.ts';
import type { AuthUser } from '../core.ts';

export interface SocketAuthDeps {
  licenseStatus(): LicenseStatus;
  verifyAccessToken(token: string): AuthUser | null | 'expired';
}

export function authenticateSocket(deps: SocketAuthDeps, token: string): AuthUser | ErrorKey {
  const licence = deps.licenseStatus();
  if (licence === 'MISSING') return 'error.license.required';
  if (licence === 'EXPIRED') return 'error.license.expired';
  const user = deps.verifyAccessToken(token);
  if (user === 'expired') return 'error.auth.tokenExpired';
  if (user?.mustChangePassword) return 'error.auth.passwordChangeRequired';
  return user ?? 'error.auth.tokenInvalid';
}
