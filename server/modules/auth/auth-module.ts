/**
 * Accounts and sessions: the user table, sign-in with throttling, access and refresh tokens,
 * revocation. Other modules reach accounts through `accounts` and tokens through `sessions`.
 */
import type { AuthUser } from '../../core.ts';
import { defineModule } from '../../module.ts';
import { AccountService } from './account-service.ts';
import { registerAuthRoutes } from './auth-routes.ts';
import m0001 from './migrations/0001-foundation.sql';
import m0009 from './migrations/0009-refresh-token-family.sql';
import m0025 from './migrations/0025-sys-admin-role.sql';
import m0026 from './migrations/0026-user-enabled.sql';
import { PasswordAttempts } from './password-attempts.ts';
import { SessionService } from './session-service.ts';
import { UserRepository } from './user-repository.ts';

declare module '../../module.ts' {
  interface Services {
    accounts: AccountService;
    sessions: SessionService;
  }
  interface Tuning {
    /** Access token lifetime in seconds (default ACCESS_TOKEN_TTL_S; tests shorten it). */
    accessTokenTtlS?: number;
  }
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** A user's sessions were revoked (password change, logout, disabled or deleted): close their websockets. */
    'user.sessionsRevoked': { userId: AuthUser['id'] };
    /** A sign-in succeeded or failed (wrong password, unknown user, throttled): for the audit log. */
    'auth.signIn': { ok: boolean; username: string; userId: AuthUser['id'] | null; ip: string };
  }
}

export const authModule = defineModule({
  name: 'auth',
  needs: [],
  migrations: [
    { name: '0001-foundation', sql: m0001 },
    { name: '0009-refresh-token-family', sql: m0009 },
    { name: '0025-sys-admin-role', sql: m0025 },
    { name: '0026-user-enabled', sql: m0026 },
  ],
  apiTags: { auth: 'Sign-in, token refresh, sign-out' },
  build: ({ core, log, tuning }) => {
    const users = new UserRepository(core.db);
    // One set of counters for every password check: sign-in and the password change's.
    const attempts = new PasswordAttempts();
    const sessions = new SessionService({ core, users, attempts, log, accessTokenTtlS: tuning.accessTokenTtlS });
    return { sessions, accounts: new AccountService({ db: core.db, users, sessions, attempts }) };
  },
  routes: registerAuthRoutes,
});
