/** STUB — implemented by the session work. */
import type { AuthUser, Core } from '../../core.ts';
import type { UserRepository } from '../user/user-repository.ts';
export class SessionService {
  constructor(readonly core: Core, readonly users: UserRepository) {}
  verifyAccessToken(_token: string): AuthUser | null | 'expired' { return null; }
}
