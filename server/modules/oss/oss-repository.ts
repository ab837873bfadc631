/** SQL for `oss_file`: one row per stored file, keyed by its content-addressed name. */
import type { Db } from '../../db/sqlite.ts';

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
}
