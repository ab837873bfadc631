/**
 * Accounts and sessions: the user table, sign-in with throttling, access and refresh tokens,
 * revocation. Other modules reach accounts through `accounts` and tokens through `sessions`.
 */
import type { AuthUser } from '../../core.ts';
import { defineModule } from '../../module.ts';
import { AccountService } from './account-service.ts';
import { registerAuthRoutes } from './auth-routes.ts';
import m0001 from './migrations/0001-foundation.sql';
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
    /** A user's sessions were revoked (password change, logout): close their websockets. */
    'user.sessionsRevoked': { userId: AuthUser['id'] };
  }
}

export const authModule = defineModule({
  name: 'auth',
  needs: [],
  migrations: [{ name: '0001-foundation', sql: m0001 }],
  apiTags: { auth: 'Sign-in, token refresh, sign-out' },
  build: ({ core, tuning }) => {
    const users = new UserRepository(core.db);
    const sessions = new SessionService(core, users, tuning.accessTokenTtlS);
    return { sessions, accounts: new AccountService(core.db, users, sessions) };
  },
  routes: registerAuthRoutes,
});
