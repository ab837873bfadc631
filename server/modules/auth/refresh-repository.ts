/** SQL for `refresh_token`: rows are keyed by the token's sha256, never the token itself. */
import type { Db } from '../../db/sqlite.ts';

export interface RefreshRow {
  userId: string;
  expiresTime: number;
}

export class RefreshTokenRepository {
  constructor(private readonly db: Db) {}

  insert(hash: string, userId: string, expiresTime: number): void {
    this.db
      .prepare('INSERT INTO refresh_token (id, user_id, expires_time, create_time) VALUES (?, ?, ?, ?)')
      .run(hash, userId, expiresTime, Date.now());
  }

  /**
   * Deletes the row and returns what it held, in one statement: two concurrent refreshes with the
   * same token cannot both succeed.
   */
  take(hash: string): RefreshRow | undefined {
    const r = this.db
      .prepare('DELETE FROM refresh_token WHERE id = ? RETURNING user_id, expires_time')
      .get(hash) as { user_id: string; expires_time: number } | undefined;
    return r && { userId: r.user_id, expiresTime: r.expires_time };
  }

  deleteForUser(userId: string): void {
    this.db.prepare('DELETE FROM refresh_token WHERE user_id = ?').run(userId);
  }

  deleteExpired(now: number): void {
    this.db.prepare('DELETE FROM refresh_token WHERE expires_time <= ?').run(now);
  }
}
