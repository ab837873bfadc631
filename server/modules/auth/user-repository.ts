/** SQL for the `user` table; camelCase rows in, snake_case columns out. */
import type { Db } from '../../db/sqlite.ts';
import type { Role } from '../../contract/user.ts';
import { newId } from '../../lib/ids.ts';

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
    createTime: r.create_time,
    updateTime: r.update_time,
  };
}

export interface NewUser {
  username: string;
  passwordHash: string;
  role: Role;
  realName: string;
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
    return this.db.prepare("SELECT 1 FROM user WHERE role = 'TENANT_ADMIN' LIMIT 1").get() !== undefined;
  }

  create(user: NewUser): UserRow {
    const now = Date.now();
    const id = newId();
    this.db
      .prepare(
        `INSERT INTO user (id, username, password_hash, role, real_name, token_version, create_time, update_time)
         VALUES (?, ?, ?, ?, ?, 0, ?, ?)`,
      )
      .run(id, user.username, user.passwordHash, user.role, user.realName, now, now);
    return this.findById(id)!;
  }

  /** Every user's id (notice receivers "all"). */
  allIds(): string[] {
    return (this.db.prepare('SELECT id FROM user ORDER BY create_time, rowid').all() as { id: string }[]).map((r) => r.id);
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

  /** Sets a new hash and bumps token_version, which invalidates every access token issued before. */
  updatePassword(id: string, passwordHash: string): void {
    this.db
      .prepare('UPDATE user SET password_hash = ?, token_version = token_version + 1, update_time = ? WHERE id = ?')
      .run(passwordHash, Date.now(), id);
  }

  updateRole(id: string, role: Role): void {
    this.db.prepare('UPDATE user SET role = ?, update_time = ? WHERE id = ?').run(role, Date.now(), id);
  }

  bumpTokenVersion(id: string): void {
    this.db.prepare('UPDATE user SET token_version = token_version + 1 WHERE id = ?').run(id);
  }
}
