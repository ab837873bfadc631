/**
 * The user accounts as other modules use them: whether an administrator exists, the first
 * administrator's creation, lookups, profile updates, a throttled check of the current password,
 * and a password change that ends every session of the account in the same transaction.
 */
import { transaction, type Db } from '../../db/sqlite.ts';
import type { Role } from '../../contract/user.ts';
import { verifyPassword } from '../../lib/password.ts';
import type { PasswordAttempts } from './password-attempts.ts';
import type { AccountPatch, NewUser, ProfilePatch, UserRepository, UserRow } from './user-repository.ts';
import type { SessionService } from './session-service.ts';

export type { UserRow } from './user-repository.ts';

export interface AccountServiceDeps {
  db: Db;
  users: UserRepository;
  sessions: SessionService;
  attempts: PasswordAttempts;
}

export class AccountService {
  private readonly db: Db;
  private readonly users: UserRepository;
  private readonly sessions: SessionService;
  private readonly attempts: PasswordAttempts;

  constructor(deps: AccountServiceDeps) {
    this.db = deps.db;
    this.users = deps.users;
    this.sessions = deps.sessions;
    this.attempts = deps.attempts;
  }

  adminExists(): boolean {
    return this.users.adminExists();
  }

  create(user: NewUser): UserRow {
    return this.users.create(user);
  }

  findByUsername(username: string): UserRow | undefined {
    return this.users.findByUsername(username);
  }

  /** A new role; open sessions have it at their next call (the access hook reads the row, not the token). */
  setRole(id: string, role: Role): UserRow | undefined {
    this.users.updateRole(id, role);
    return this.users.findById(id);
  }

  allIds(): string[] {
    return this.users.allIds();
  }

  findById(id: string): UserRow | undefined {
    return this.users.findById(id);
  }

  page(query: Parameters<UserRepository['page']>[0]): { items: UserRow[]; total: number } {
    return this.users.page(query);
  }

  enabledAdminIds(): string[] {
    return this.users.enabledAdminIds();
  }

  /** An administrator's edit; disabling the account or changing its role ends its sessions at once. */
  updateAccount(id: string, patch: AccountPatch): void {
    transaction(this.db, () => {
      const before = this.users.findById(id);
      this.users.updateAccount(id, patch);
      if (before && (!patch.enabled || before.role !== patch.role)) this.sessions.revokeSessions(id);
    });
  }

  /** Ends the account's sessions and websockets, then deletes it (its refresh tokens go with it). */
  delete(id: string): void {
    transaction(this.db, () => {
      this.sessions.revokeSessions(id);
      this.users.delete(id);
    });
  }

  /** An administrator's reset: the new password works at once, and must be changed at the next sign-in. */
  resetPassword(id: string, passwordHash: string): void {
    transaction(this.db, () => {
      this.users.updatePassword(id, passwordHash, true);
      this.sessions.revokeSessions(id);
    });
  }

  updateProfile(id: string, patch: ProfilePatch): UserRow | undefined {
    return this.users.updateProfile(id, patch);
  }

  /**
   * Whether `password` is the user's, counted with the sign-in failures of that account and
   * address (password-attempts.ts): a stolen access token does not buy unlimited guesses at the
   * current password. Throws 429 code 33 `error.password.tooManyAttempts` while locked.
   */
  async checkPassword(user: UserRow, password: string, ip: string): Promise<boolean> {
    return this.attempts.check(user.username, ip, () => verifyPassword(password, user.passwordHash), 'error.password.tooManyAttempts');
  }

  /** Stores the new hash and revokes every session: the old password's tokens stop working at once. */
  changePassword(id: string, passwordHash: string): void {
    transaction(this.db, () => {
      this.users.updatePassword(id, passwordHash);
      this.sessions.revokeSessions(id);
    });
  }
}
