/** Where to go after sign-in: the `redirect` query parameter, when it is a path on this origin. */
import { consolePaths } from '../../../server/contract/console-paths.ts';

/** Pages that make no sense to return to once signed in. */
const notAfterSignIn: readonly string[] = [consolePaths.login, consolePaths.forgotPassword, consolePaths.guide, consolePaths.expiredLicense];

/**
 * `raw` must be an absolute path of this origin: `//host` and `/\host` are other origins to a
 * browser, and any scheme (`javascript:`, `https:`) is refused. Anything else gives `fallback`.
 */
export function safeRedirect(raw: string | null | undefined, fallback: string = consolePaths.workbench): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return fallback;
  // oxlint-disable-next-line no-control-regex -- control characters are what this check refuses
  if (/[\u0000-\u001f\u007f]/.test(raw)) return fallback;
  let target: URL;
  try {
    target = new URL(raw, 'http://console.invalid');
  } catch {
    return fallback;
  }
  if (target.origin !== 'http://console.invalid') return fallback;
  if (notAfterSignIn.includes(target.pathname)) return fallback;
  return `${target.pathname}${target.search}${target.hash}`;
}
