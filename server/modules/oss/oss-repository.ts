/** SQL for `oss_file` (one row per stored file, keyed by its content-addressed name) and `oss_file_owner`. */
import type { Db } from '../../db/sqlite.ts';
import { newId } from '../../lib/ids.ts';

export interface OssFileRow {
  id: string;
  size: number;
  mime: string;
  createTime: number;
}

export class OssFileRepository {
  constructor(private readonly db: Db) {}

  /** The same content uploaded twice is one file: the first row stays. */
  insertIfAbsent(id: string, size: number, mime: string): void {
    this.db
      .prepare('INSERT OR IGNORE INTO oss_file (id, size, mime, create_time) VALUES (?, ?, ?, ?)')
      .run(id, size, mime, Date.now());
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM oss_file WHERE id = ?').run(id).changes > 0;
  }

  findById(id: string): OssFileRow | undefined {
    const r = this.db.prepare('SELECT id, size, mime, create_time FROM oss_file WHERE id = ?').get(id) as
      | { id: string; size: number; mime: string; create_time: number }
      | undefined;
    return r && { id: r.id, size: r.size, mime: r.mime, createTime: r.create_time };
  }

  addOwner(fileId: string, userId: string): void {
    this.db
      .prepare('INSERT OR IGNORE INTO oss_file_owner (id, file_id, user_id, create_time) VALUES (?, ?, ?, ?)')
      .run(newId(), fileId, userId, Date.now());
  }

  /** Answers whether `userId` held the file. */
  removeOwner(fileId: string, userId: string): boolean {
    return this.db.prepare('DELETE FROM oss_file_owner WHERE file_id = ? AND user_id = ?').run(fileId, userId).changes > 0;
  }

  isOwner(fileId: string, userId: string): boolean {
    return this.db.prepare('SELECT 1 FROM oss_file_owner WHERE file_id = ? AND user_id = ?').get(fileId, userId) !== undefined;
  }

  ownerCount(fileId: string): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM oss_file_owner WHERE file_id = ?').get(fileId) as { n: number }).n;
  }

  /** The names of the files `userId` holds. */
  filesOf(userId: string): string[] {
    return (this.db.prepare('SELECT file_id FROM oss_file_owner WHERE user_id = ?').all(userId) as { file_id: string }[]).map((r) => r.file_id);
  }

  /** Bytes of the files `userId` holds (each counted whole, as if no one else held it). */
  bytesOf(userId: string): number {
    const r = this.db
      .prepare('SELECT COALESCE(SUM(f.size), 0) AS bytes FROM oss_file_owner o JOIN oss_file f ON f.id = o.file_id WHERE o.user_id = ?')
      .get(userId) as { bytes: number };
    return r.bytes;
  }
}
