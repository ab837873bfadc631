/**
 * Sessions: sign-in with failure throttling, access tokens (JWT, checked against the user's
 * token_version on every request), rotating refresh tokens, and revocation of all of a user's
 * sessions (logout, password change).
 */
import { createHash, randomBytes } from 'node:crypto';
import { ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_S, type TokenPair } from '../../contract/auth.ts';
import { ErrorCode } from '../../contract/errors.ts';
import type { AuthUser, Core } from '../../core.ts';
import { transaction } from '../../db/sqlite.ts';
import { AppError } from '../../lib/app-error.ts';
import type { UserRepository, UserRow } from './user-repository.ts';
import { verifyPassword } from '../../lib/password.ts';
import { RefreshTokenRepository } from './refresh-repository.ts';
import { signAccessToken, verifyAccessTokenSignature } from './token.ts';

/**
 * Failed sign-ins tolerated per account within the window. Five lets a person mistype a few
 * times; it bounds an online guesser to about 1,400 tries a day per account, and the block lifts by
 * itself, so nobody (an attacker included) can lock an account for good.
 */
export const ACCOUNT_FAILURE_LIMIT = 5;
/** Per source address: higher, because one operator workstation may try several accounts. */
export const IP_FAILURE_LIMIT = 20;
/** Sliding window of both counters. */
export const LOGIN_FAILURE_WINDOW_MS = 5 * 60 * 1000;

/**
 * A scrypt hash (same parameters as password.ts) of a random password nobody knows. Sign-ins for
 * unknown accounts verify against it so they cost as much as real ones: no timing oracle for
 * which usernames exist.
 */
const DUMMY_HASH = 'scrypt$32768$8$1$InV3ym/Jmo72nBkc79YTnw==$vVAipIwzLVaPfeCZwjC02Fp5qWgypoRFEF8zFGAsvDM=';

/** Counts failures per key over a sliding window, in memory; never a permanent lock. */
export class FailureWindow {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    /** Bounds memory when someone sprays many keys; evicting only forgets old failures. */
    private readonly maxKeys = 10_000,
  ) {}

  /** Milliseconds until `key` may try again; 0 when it may try now. */
  retryAfterMs(key: string, now: number): number {
    const list = this.live(key, now);
    if (list.length < this.limit) return 0;
    return list[list.length - this.limit]! + this.windowMs - now;
  }

  record(key: string, now: number): void {
    const list = this.live(key, now);
    list.push(now);
    // Only the newest `limit` entries decide the block, so older ones need not be kept.
    if (list.length > this.limit) list.splice(0, list.length - this.limit);
    this.hits.delete(key);
    this.hits.set(key, list);
    if (this.hits.size > this.maxKeys) this.hits.delete(this.hits.keys().next().value!);
  }

  /** Takes back one failure recorded at `at` (an attempt that turned out to succeed). */
  forgive(key: string, at: number): void {
    const list = this.hits.get(key);
    const i = list?.lastIndexOf(at) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
  }

  clear(key: string): void {
    this.hits.delete(key);
  }

  private live(key: string, now: number): number[] {
    const list = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (list.length === 0) this.hits.delete(key);
    return list;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export class SessionService {
  private readonly refreshTokens: RefreshTokenRepository;
  private readonly accountFailures = new FailureWindow(ACCOUNT_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS);
  private readonly ipFailures = new FailureWindow(IP_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS);

  constructor(
    readonly core: Core,
    readonly users: UserRepository,
    private readonly accessTokenTtlS: number = ACCESS_TOKEN_TTL_S,
  ) {
    this.refreshTokens = new RefreshTokenRepository(core.db);
  }

  /**
   * Unknown user and wrong password give the same answer. While an account or address is
   * throttled, even the right password is refused (else throttling would not slow a guesser).
   */
  async login(username: string, password: string, ip: string): Promise<TokenPair> {
    const account = username.toLowerCase(); // usernames compare case-insensitively (COLLATE NOCASE)
    const now = Date.now();
    const waitMs = Math.max(this.ipFailures.retryAfterMs(ip, now), this.accountFailures.retryAfterMs(account, now));
    if (waitMs > 0) {
      throw new AppError(ErrorCode.TOO_MANY_REQUESTS, 'error.loginRateLimited', { seconds: Math.ceil(waitMs / 1000) });
    }
    // Counted before the (asynchronous) password check and taken back on success, so a burst of
    // parallel attempts cannot all slip past the limit while their hashes are computed.
    this.ipFailures.record(ip, now);
    this.accountFailures.record(account, now);

    const user = this.users.findByUsername(username);
    const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !ok) throw new AppError(ErrorCode.AUTHENTICATION, 'error.auth.badCredentials');

    this.ipFailures.forgive(ip, now);
    this.accountFailures.clear(account);
    this.refreshTokens.deleteExpired(Date.now());
    return this.issue(user);
  }

  /** Rotation: the presented refresh token is consumed; reuse or expiry answers code 10. */
  refresh(refreshToken: string): TokenPair {
    return transaction(this.core.db, () => {
      const row = this.refreshTokens.take(sha256(refreshToken));
      const user = row && row.expiresTime > Date.now() ? this.users.findById(row.userId) : undefined;
      if (!user) throw new AppError(ErrorCode.AUTHENTICATION, 'error.auth.refreshInvalid');
      return this.issue(user);
    });
  }

  /**
   * Ends every session of the user: refresh tokens deleted, token_version bumped (so access tokens
   * already issued fail at once), and websockets told to close.
   */
  revokeSessions(userId: string): void {
    transaction(this.core.db, () => {
      this.refreshTokens.deleteForUser(userId);
      this.users.bumpTokenVersion(userId);
    });
    this.core.bus.emit('user.sessionsRevoked', { userId });
  }

  /** Cheap on purpose (one HMAC, one primary-key read) and uncached, so revocation is immediate. */
  verifyAccessToken(token: string): AuthUser | null | 'expired' {
    const claims = verifyAccessTokenSignature(this.core.secrets.jwtKey, token);
    if (claims === null || claims === 'expired') return claims;
    const user = this.users.findById(claims.sub);
    if (!user || user.tokenVersion !== claims.tv) return null;
    return { id: user.id, username: user.username, role: user.role };
  }

  /** When a well-signed access token expires (ms since the epoch), or null for one that is invalid or expired. */
  accessTokenExpiresAt(token: string): number | null {
    const claims = verifyAccessTokenSignature(this.core.secrets.jwtKey, token);
    return claims === null || claims === 'expired' ? null : claims.exp * 1000;
  }

  private issue(user: UserRow): TokenPair {
    const iat = Math.floor(Date.now() / 1000);
    const token = signAccessToken(this.core.secrets.jwtKey, {
      sub: user.id,
      username: user.username,
      role: user.role,
      tv: user.tokenVersion,
      iat,
      exp: iat + this.accessTokenTtlS,
    });
    const refreshToken = randomBytes(32).toString('base64url');
    this.refreshTokens.insert(sha256(refreshToken), user.id, Date.now() + REFRESH_TOKEN_TTL_S * 1000);
    return { token, refreshToken };
  }
}
