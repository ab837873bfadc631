/**
 * Throttling of every password check (sign-in, the current password of a password change), with
 * one set of counters so a guesser cannot add the tries of one route to those of another.
 *
 * Failures lock an account only for the address they came from: someone failing from elsewhere
 * cannot keep the rightful user (often the only administrator) out, and the right password from an
 * address that has not failed always gets through. The price is that a guesser with many addresses
 * gets ACCOUNT_FAILURE_LIMIT tries per address before the locks start; the password policy
 * (server/contract/validation.ts) is what keeps that affordable. An address spraying many accounts
 * is slowed by its own window as well.
 */
import { ErrorCode, type ErrorKey } from '../../contract/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import { FailureBackoff, FailureWindow } from '../../lib/failure-counters.ts';

/**
 * Failed checks of one account from one address before it is locked for that address. Five lets a
 * person mistype a few times.
 */
export const ACCOUNT_FAILURE_LIMIT = 5;
/** The first lock; each further failure doubles it, up to MAX_LOCK_MS. */
export const FIRST_LOCK_MS = 60 * 1000;
/**
 * The longest lock. After it one guess an hour is left (about 35 a day per account from an address, against
 * 1,400 a day with the earlier 5-per-5-minutes window), and no lock lasts longer: never for good.
 */
export const MAX_LOCK_MS = 60 * 60 * 1000;
/** An account and address without a failure for this long start afresh. */
export const FAILURE_MEMORY_MS = 24 * 60 * 60 * 1000;
/** Per source address, on any accounts: higher, because one operator workstation may try several accounts. */
export const IP_FAILURE_LIMIT = 20;
/** Sliding window of the per-address counter. */
export const LOGIN_FAILURE_WINDOW_MS = 5 * 60 * 1000;

export type ThrottledKey = Extract<ErrorKey, 'error.loginRateLimited' | 'error.password.tooManyAttempts'>;

export class PasswordAttempts {
  private readonly addresses = new FailureWindow(IP_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS);
  private readonly accountsFromAddress = new FailureBackoff({
    free: ACCOUNT_FAILURE_LIMIT,
    firstLockMs: FIRST_LOCK_MS,
    maxLockMs: MAX_LOCK_MS,
    memoryMs: FAILURE_MEMORY_MS,
  });

  /**
   * Runs `verify` (a password comparison) for `account` (compared case-insensitively) from `ip`,
   * unless either is locked: then 429 code 33 with `refusedKey` and the seconds to wait. While
   * locked even the right password is refused, else the lock would not slow a guesser.
   */
  async check(account: string, ip: string, verify: () => Promise<boolean>, refusedKey: ThrottledKey): Promise<boolean> {
    // Addresses hold no space, so the key cannot be confused between two (account, address) pairs.
    const pair = `${ip} ${account.toLowerCase()}`;
    const now = Date.now();
    const waitMs = Math.max(this.addresses.retryAfterMs(ip, now), this.accountsFromAddress.retryAfterMs(pair, now));
    if (waitMs > 0) throw new AppError(ErrorCode.TOO_MANY_REQUESTS, refusedKey, { seconds: Math.ceil(waitMs / 1000) });
    // Counted before the (asynchronous) comparison and taken back on success, so a burst of
    // parallel attempts cannot all slip past the limit while their hashes are computed.
    this.addresses.record(ip, now);
    this.accountsFromAddress.record(pair, now);
    const ok = await verify();
    if (ok) {
      this.addresses.forgive(ip, now);
      this.accountsFromAddress.clear(pair);
    }
    return ok;
  }
}
