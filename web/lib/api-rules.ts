/**
 * The spec's rules of the console's HTTP client that need no browser (web/lib/api-client.ts runs
 * them): which text of a failed answer to show, what counts as a licence error and where it leads,
 * and the optional retry of POST requests.
 */
import { isCertificateExpiredMessage } from '../../server/contract/rules/license-expired.ts';
import { ErrorCode } from '../../server/contract/errors.ts';
import { consolePaths } from '../../server/contract/console-paths.ts';

/**
 * The message of a failed answer: the body's `errorMessage`, `message` or `msg` (an upstream edge
 * core in proxy mode answers with `msg`), else the body itself when it is text; null when there
 * is none, and the caller shows the catalogue's text for the status.
 */
export function errorTextOf(body: unknown): string | null {
  if (typeof body === 'string') return body.trim() || null;
  if (body === null || typeof body !== 'object') return null;
  const fields = body as Record<string, unknown>;
  for (const name of ['errorMessage', 'message', 'msg']) {
    const value = fields[name];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return null;
}

/** Code 99, or a message saying the certificate has expired (whatever the code). */
export function isLicenseError(code: number | undefined, message: string | null | undefined): boolean {
  return code === ErrorCode.LICENSE || isCertificateExpiredMessage(message);
}

/** Server keys saying there is no licence at all (or setup is not done): the activation wizard. */
const GUIDE_KEYS: ReadonlySet<string> = new Set(['error.license.required', 'error.setup.licenseFirst']);

/**
 * Where a licence error sends the user after the session is reset: the activation wizard (the
 * setting guide) with the server's licence code as `licenseCode` when there is no licence, else
 * the expired-licence upload page.
 */
export function licenseRedirect(key: string | undefined): string {
  if (key !== undefined && GUIDE_KEYS.has(key)) return `${consolePaths.guide}?licenseCode=${encodeURIComponent(key)}`;
  return consolePaths.expiredLicense;
}

/** The spec's POST retry: 5 more tries, 100 ms apart, where a caller turns it on. */
export const POST_RETRY = { count: 5, delayMs: 100 } as const;

export interface RetryPolicy {
  count: number;
  delayMs: number;
}

/**
 * Runs `attempt`, and again after `delayMs` while it fails with an error `retryable` accepts, at
 * most `count` more times; the last failure is thrown. `wait` is the pause (tests pass their own).
 */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy | null,
  retryable: (err: unknown) => boolean,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (err) {
      if (!policy || tries >= policy.count || !retryable(err)) throw err;
      await wait(policy.delayMs);
    }
  }
}
