/**
 * SQL for `refresh_token`: rows are keyed by the token's sha256, never the token itself. A rotated
 * token stays (used) until it expires, so a replay can be told from a token never issued.
 */
import type { Db } from '../../db/sqlite.ts';

export interface RefreshRow {
  userId: string;
  familyId: string;
  expiresTime: number;
}

export class RefreshTokenRepository {
  constructor(private readonly db: Db) {}

  insert(hash: string, userId: string, familyId: string, expiresTime: number): void {
    this.db
      .prepare('INSERT INTO refresh_token (id, user_id, family_id, expires_time, create_time) VALUES (?, ?, ?, ?, ?)')
      .run(hash, userId, familyId, expiresTime, Date.now());
  }

  /**
   * Marks a live token used and returns what it held, in one statement: two concurrent refreshes
   * with the same token cannot both succeed. Undefined when it is unknown or used already.
   */
  use(hash: string, now: number): RefreshRow | undefined {
    const r = this.db
      .prepare('UPDATE refresh_token SET used_time = ? WHERE id = ? AND used_time IS NULL RETURNING user_id, family_id, expires_time')
      .get(now, hash) as { user_id: string; family_id: string; expires_time: number } | undefined;
    return r && { userId: r.user_id, familyId: r.family_id, expiresTime: r.expires_time };
  }

  /** The family of a token that was issued and rotated already; undefined for any other. */
  familyOfUsed(hash: string): string | undefined {
    const r = this.db.prepare('SELECT family_id FROM refresh_token WHERE id = ? AND used_time IS NOT NULL').get(hash) as
      | { family_id: string }
      | undefined;
    return r?.family_id;
  }

  /** True while the sign-in `familyId` has any token left: not revoked, logged out or expired. */
  familyExists(familyId: string): boolean {
    return this.db.prepare('SELECT 1 FROM refresh_token WHERE family_id = ? LIMIT 1').get(familyId) !== undefined;
  }

  deleteFamily(familyId: string): void {
    this.db.prepare('DELETE FROM refresh_token WHERE family_id = ?').run(familyId);
  }

  deleteForUser(userId: string): void {
    this.db.prepare('DELETE FROM refresh_token WHERE user_id = ?').run(userId);
  }

  deleteExpired(now: number): void {
    this.db.prepare('DELETE FROM refresh_token WHERE expires_time <= ?').run(now);
  }
}
