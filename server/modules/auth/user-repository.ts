/** SQL for the `user` table; camelCase rows in, snake_case columns out. */
import type { Db } from '../../db/sqlite.ts';
import type { Role } from '../../contract/user.ts';
import { newId } from '../../lib/ids.ts';
import { containsPattern, pageWindow, Where } from '../../db/list-query.ts';

export interface UserRow {
  id: string;
  username: string;
  passwordHash: string;
  role: Role;
  realName: string;
  phoneNumber: string | null;
  email: string | null;
  avatar: string | null;
  tokenVersion: number;
  /** A disabled account cannot sign in, and its tokens stop working. */
  enabled: boolean;
  /** Set by an administrator's password reset; cleared by the user's own password change. */
  mustChangePassword: boolean;
  createTime: number;
  updateTime: number;
}

interface UserRecord {
  id: string;
  username: string;
  password_hash: string;
  role: Role;
  real_name: string;
  phone_number: string | null;
  email: string | null;
  avatar: string | null;
  token_version: number;
  enabled: number;
  must_change_password: number;
  create_time: number;
  update_time: number;
}

function toRow(r: UserRecord): UserRow {
  return {
    id: r.id,
    username: r.username,
    passwordHash: r.password_hash,
    role: r.role,
    realName: r.real_name,
    phoneNumber: r.phone_number,
    email: r.email,
    avatar: r.avatar,
    tokenVersion: r.token_version,
    enabled: r.enabled === 1,
    mustChangePassword: r.must_change_password === 1,
    createTime: r.create_time,
    updateTime: r.update_time,
  };
}

export interface NewUser {
  username: string;
  passwordHash: string;
  role: Role;
  realName: string;
  enabled?: boolean;
  mustChangePassword?: boolean;
}

/** What an administrator edits of an account (server/contract/user-admin.ts). */
export interface AccountPatch {
  username: string;
  realName: string;
  role: Role;
  enabled: boolean;
}

export interface ProfilePatch {
  realName: string;
  phoneNumber: string | null;
  email: string | null;
  avatar: string | null;
}

export class UserRepository {
  constructor(private readonly db: Db) {}

  /** True once the first-boot administrator exists; provisioning with the setup code then ends. */
  adminExists(): boolean {
    return this.db.prepare("SELECT 1 FROM user WHERE role = 'SYS_ADMIN' LIMIT 1").get() !== undefined;
  }

  /** Enabled super administrators: at least one must remain (server/modules/user-admin/user-admin-service.ts). */
  enabledAdminIds(): string[] {
    return (this.db.prepare("SELECT id FROM user WHERE role = 'SYS_ADMIN' AND enabled = 1").all() as { id: string }[]).map((r) => r.id);
  }

  create(user: NewUser): UserRow {
    const now = Date.now();
    const id = newId();
    this.db
      .prepare(
        `INSERT INTO user (id, username, password_hash, role, real_name, token_version, enabled, must_change_password, create_time, update_time)
         VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
      )
      .run(id, user.username, user.passwordHash, user.role, user.realName, user.enabled === false ? 0 : 1, user.mustChangePassword ? 1 : 0, now, now);
    return this.findById(id)!;
  }

  /** Every user's id (notice receivers "all"). */
  allIds(): string[] {
    return (this.db.prepare('SELECT id FROM user ORDER BY create_time, rowid').all() as { id: string }[]).map((r) => r.id);
  }

  /** One page, newest first, and the total under the same filters. */
  page(query: { page: number; pageSize: number; username?: string; role?: Role }): { items: UserRow[]; total: number } {
    const where = new Where();
    if (query.username) where.add("username LIKE ? ESCAPE '\\'", containsPattern(query.username));
    if (query.role) where.add('role = ?', query.role);
    const { limit, offset } = pageWindow(query.page, query.pageSize);
    const rows = this.db
      .prepare(`SELECT * FROM user ${where.sql} ORDER BY create_time DESC, rowid DESC LIMIT ? OFFSET ?`)
      .all(...where.params, limit, offset) as unknown as UserRecord[];
    const { total } = this.db.prepare(`SELECT COUNT(*) AS total FROM user ${where.sql}`).get(...where.params) as { total: number };
    return { items: rows.map(toRow), total };
  }

  findById(id: string): UserRow | undefined {
    const r = this.db.prepare('SELECT * FROM user WHERE id = ?').get(id) as UserRecord | undefined;
    return r && toRow(r);
  }

  findByUsername(username: string): UserRow | undefined {
    const r = this.db.prepare('SELECT * FROM user WHERE username = ?').get(username) as UserRecord | undefined;
    return r && toRow(r);
  }

  updateProfile(id: string, patch: ProfilePatch): UserRow | undefined {
    this.db
      .prepare('UPDATE user SET real_name = ?, phone_number = ?, email = ?, avatar = ?, update_time = ? WHERE id = ?')
      .run(patch.realName, patch.phoneNumber, patch.email, patch.avatar, Date.now(), id);
    return this.findById(id);
  }

  /**
   * Sets a new hash and bumps token_version, which invalidates every access token issued before.
   * `mustChange`: an administrator's reset (the user must choose their own at the next sign-in).
   */
  updatePassword(id: string, passwordHash: string, mustChange = false): void {
    this.db
      .prepare('UPDATE user SET password_hash = ?, must_change_password = ?, token_version = token_version + 1, update_time = ? WHERE id = ?')
      .run(passwordHash, mustChange ? 1 : 0, Date.now(), id);
  }

  updateAccount(id: string, patch: AccountPatch): void {
    this.db
      .prepare('UPDATE user SET username = ?, real_name = ?, role = ?, enabled = ?, update_time = ? WHERE id = ?')
      .run(patch.username, patch.realName, patch.role, patch.enabled ? 1 : 0, Date.now(), id);
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM user WHERE id = ?').run(id);
  }

  updateRole(id: string, role: Role): void {
    this.db.prepare('UPDATE user SET role = ?, update_time = ? WHERE id = ?').run(role, Date.now(), id);
  }

  bumpTokenVersion(id: string): void {
    this.db.prepare('UPDATE user SET token_version = token_version + 1 WHERE id = ?').run(id);
  }
}
