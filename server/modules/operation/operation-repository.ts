/** SQL for `operation_entry` (banners and guide entries); camelCase rows in, snake_case columns out. */
import type { OperationEntry, OperationKind, OperationPage, ShownEntry } from '../../contract/operation.ts';
import type { PageQuery } from '../../contract/common.ts';
import type { Db } from '../../db/sqlite.ts';
import { pageWindow } from '../../db/list-query.ts';

interface EntryRecord {
  id: string;
  name: string;
  image: string;
  url: string;
  status: number;
  sort: number;
  remark: string;
  create_time: number;
}

function toEntry(r: EntryRecord): OperationEntry {
  return { id: r.id, name: r.name, image: r.image, url: r.url, status: r.status, sort: r.sort, remark: r.remark, createTime: r.create_time };
}

/** The order both the manager's list and the shown entries follow: the spec's sort, then oldest first. */
const ORDER = 'ORDER BY sort ASC, create_time ASC, rowid ASC';

export class OperationRepository {
  constructor(private readonly db: Db) {}

  page(kind: OperationKind, query: PageQuery): OperationPage {
    const { limit, offset } = pageWindow(query.page, query.pageSize);
    const rows = this.db
      .prepare(`SELECT * FROM operation_entry WHERE kind = ? ${ORDER} LIMIT ? OFFSET ?`)
      .all(kind, limit, offset) as unknown as EntryRecord[];
    const { total } = this.db.prepare('SELECT COUNT(*) AS total FROM operation_entry WHERE kind = ?').get(kind) as { total: number };
    return { items: rows.map(toEntry), total };
  }

  shown(kind: OperationKind): ShownEntry[] {
    return this.db
      .prepare(`SELECT id, name, image, url FROM operation_entry WHERE kind = ? AND status = 1 ${ORDER}`)
      .all(kind) as unknown as ShownEntry[];
  }

  find(kind: OperationKind, id: string): OperationEntry | undefined {
    const r = this.db.prepare('SELECT * FROM operation_entry WHERE kind = ? AND id = ?').get(kind, id) as EntryRecord | undefined;
    return r && toEntry(r);
  }

  insert(kind: OperationKind, e: OperationEntry): void {
    this.db
      .prepare('INSERT INTO operation_entry (id, kind, name, image, url, status, sort, remark, create_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(e.id, kind, e.name, e.image, e.url, e.status, e.sort, e.remark, e.createTime);
  }

  update(kind: OperationKind, e: OperationEntry): void {
    this.db
      .prepare('UPDATE operation_entry SET name = ?, image = ?, url = ?, status = ?, sort = ?, remark = ? WHERE kind = ? AND id = ?')
      .run(e.name, e.image, e.url, e.status, e.sort, e.remark, kind, e.id);
  }

  delete(kind: OperationKind, ids: readonly string[]): number {
    const stmt = this.db.prepare('DELETE FROM operation_entry WHERE kind = ? AND id = ?');
    return ids.reduce((n, id) => n + Number(stmt.run(kind, id).changes), 0);
  }
}
