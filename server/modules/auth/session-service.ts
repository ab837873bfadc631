/**
 * Sessions: sign-in with failure throttling, access tokens (JWT, checked against the user's
 * token_version and their sign-in on every request), rotating refresh tokens whose replay ends
 * that sign-in, and revocation of all of a user's sessions (logout, password change).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_S, type TokenPair } from '../../contract/auth.ts';
import { ErrorCode } from '../../contract/errors.ts';
import type { AuthUser, Core } from '../../core.ts';
import { transaction } from '../../db/sqlite.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { UserRepository, UserRow } from './user-repository.ts';
import { verifyPassword } from '../../lib/password.ts';
import type { PasswordAttempts } from './password-attempts.ts';
import { RefreshTokenRepository } from './refresh-repository.ts';
import { signAccessToken, verifyAccessTokenSignature } from './token.ts';

/**
 * A scrypt hash (same parameters as password.ts) of a random password nobody knows. Sign-ins for
 * unknown accounts verify against it so they cost as much as real ones: no timing oracle for
 * which usernames exist.
 */
const DUMMY_HASH = 'scrypt$32768$8$1$InV3ym/Jmo72nBkc79YTnw==$vVAipIwzLVaPfeCZwjC02Fp5qWgypoRFEF8zFGAsvDM=';

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * A sign-in that another module answers instead of the local password hash (the cloud account
 * sign-in, server/modules/cloud-account/): it decides which accounts it takes and checks them.
 */
export interface ExternalSignIn {
  /** Whether it checks this name; `user` is the local account of that name, if any. */
  handles(username: string, user: UserRow | undefined): boolean;
  /** The local account to sign in, or null when refused; may throw an AppError (code 10) with its own key. */
  signIn(username: string, password: string): Promise<UserRow | null>;
}

export class SessionService {
  private readonly refreshTokens: RefreshTokenRepository;
  private external: ExternalSignIn | null = null;

  readonly core: Core;
  readonly users: UserRepository;
  private readonly attempts: PasswordAttempts;
  private readonly log: FastifyBaseLogger;
  private readonly accessTokenTtlS: number;

  constructor(deps: { core: Core; users: UserRepository; attempts: PasswordAttempts; log: FastifyBaseLogger; accessTokenTtlS?: number }) {
    this.core = deps.core;
    this.users = deps.users;
    this.attempts = deps.attempts;
    this.log = deps.log;
    this.accessTokenTtlS = deps.accessTokenTtlS ?? ACCESS_TOKEN_TTL_S;
    this.refreshTokens = new RefreshTokenRepository(deps.core.db);
  }

  /**
   * Unknown user and wrong password give the same answer. Throttled per account and address and
   * per address (password-attempts.ts); unknown user names are counted like real ones.
   */
  async login(username: string, password: string, ip: string): Promise<TokenPair> {
    const local = this.users.findByUsername(username);
    const external = this.external?.handles(username, local) ? this.external : null;
    let user: UserRow | null | undefined = local;
    const announce = (ok: boolean): void =>
      this.core.bus.emit('auth.signIn', { ok, username: user?.username ?? username, userId: user?.id ?? null, ip });
    // Usernames compare case-insensitively (COLLATE NOCASE); the throttle lower-cases the key.
    // An external check counts against the same limits as a local one.
    const ok = await this.attempts
      .check(
        username,
        ip,
        async () => {
          if (!external) return verifyPassword(password, local?.passwordHash ?? DUMMY_HASH);
          user = await external.signIn(username, password);
          return user !== null;
        },
        'error.loginRateLimited',
      )
      .catch((err: unknown) => {
        announce(false);
        throw err;
      });
    if (!user || !ok) {
      announce(false);
      throw new AppError(ErrorCode.AUTHENTICATION, 'error.auth.badCredentials');
    }
    // Told only to whoever knows the password: it is their account that is off.
    if (!user.enabled) {
      announce(false);
      throw new AppError(ErrorCode.AUTHENTICATION, 'error.auth.accountDisabled');
    }

    this.refreshTokens.deleteExpired(Date.now());
    const pair = this.issue(user);
    announce(true);
    return pair;
  }

  /** Lets one other module check some sign-ins (see ExternalSignIn); a second registration is a wiring mistake. */
  useExternalSignIn(external: ExternalSignIn): void {
    if (this.external) throw new Error('an external sign-in is already registered');
    this.external = external;
  }

  /**
   * Rotation: the presented refresh token is used up and a new one of the same family (sign-in)
   * issued. Presenting a used one again means two parties hold the token, one of them a thief, and
   * nobody can tell which: the whole family ends (its refresh tokens, and its access tokens at
   * their next call), other sign-ins of the user go on. Reuse, expiry or an unknown token answer
   * code 10.
   */
  refresh(refreshToken: string): TokenPair {
    const hash = sha256(refreshToken);
    const outcome = transaction(this.core.db, (): TokenPair | { replayOf: string } | null => {
      const now = Date.now();
      const row = this.refreshTokens.use(hash, now);
      if (!row) {
        const family = this.refreshTokens.familyOfUsed(hash);
        if (family === undefined) return null;
        this.refreshTokens.deleteFamily(family);
        return { replayOf: family };
      }
      const user = row.expiresTime > now ? this.users.findById(row.userId) : undefined;
      return user?.enabled ? this.issue(user, row.familyId) : null;
    });
    // Thrown after the transaction: a throw inside it would roll the family's revocation back.
    if (outcome === null || 'replayOf' in outcome) {
      if (outcome) this.log.warn({ family: outcome.replayOf }, 'refresh token replayed: every token of that sign-in revoked');
      throw new AppError(ErrorCode.AUTHENTICATION, 'error.auth.refreshInvalid');
    }
    return outcome;
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

  /**
   * Cheap on purpose (one HMAC, a primary-key read and an indexed lookup of the token's sign-in)
   * and uncached, so revocation is immediate.
   */
  verifyAccessToken(token: string): AuthUser | null | 'expired' {
    const claims = verifyAccessTokenSignature(this.core.secrets.jwtKey, token);
    if (claims === null || claims === 'expired') return claims;
    const user = this.users.findById(claims.sub);
    if (!user || !user.enabled || user.tokenVersion !== claims.tv) return null;
    if (claims.fam !== undefined && !this.refreshTokens.familyExists(claims.fam)) return null;
    return { id: user.id, username: user.username, role: user.role, mustChangePassword: user.mustChangePassword };
  }

  /** When a well-signed access token expires (ms since the epoch), or null for one that is invalid or expired. */
  accessTokenExpiresAt(token: string): number | null {
    const claims = verifyAccessTokenSignature(this.core.secrets.jwtKey, token);
    return claims === null || claims === 'expired' ? null : claims.exp * 1000;
  }

  /** A new pair for `user`; `familyId` is the sign-in it continues (a new sign-in starts one). */
  private issue(user: UserRow, familyId: string = newId()): TokenPair {
    const iat = Math.floor(Date.now() / 1000);
    const token = signAccessToken(this.core.secrets.jwtKey, {
      sub: user.id,
      username: user.username,
      role: user.role,
      tv: user.tokenVersion,
      fam: familyId,
      iat,
      exp: iat + this.accessTokenTtlS,
    });
    const refreshToken = randomBytes(32).toString('base64url');
    this.refreshTokens.insert(sha256(refreshToken), user.id, familyId, Date.now() + REFRESH_TOKEN_TTL_S * 1000);
    return { token, refreshToken };
  }
}
