/** SQL for `notice` and `notice_receipt`; camelCase rows in, snake_case columns out. */
import type { MyNotice, Notice, NoticeListQuery, NoticeReceiverType, NoticeStatus, NoticeType } from '../../contract/notice.ts';
import type { Db } from '../../db/sqlite.ts';
import { pageWindow, Where } from '../../db/list-query.ts';

interface NoticeRecord {
  id: string;
  type: NoticeType;
  title: string;
  content: string;
  status: NoticeStatus;
  receiver_type: NoticeReceiverType;
  receiver_ids: string;
  created_by: string | null;
  create_time: number;
  update_time: number;
  publish_time: number | null;
}

function toNotice(r: NoticeRecord): Notice {
  return {
    id: r.id,
    type: r.type,
    title: r.title,
    content: r.content,
    status: r.status,
    receiverType: r.receiver_type,
    receiverIds: JSON.parse(r.receiver_ids) as string[],
    createdBy: r.created_by,
    createdTime: r.create_time,
    updatedTime: r.update_time,
    publishedTime: r.publish_time,
  };
}

function params(n: Notice): (string | number | null)[] {
  return [n.type, n.title, n.content, n.status, n.receiverType, JSON.stringify(n.receiverIds), n.createdBy, n.createdTime, n.updatedTime, n.publishedTime, n.id];
}

export class NoticeRepository {
  constructor(private readonly db: Db) {}

  page(query: NoticeListQuery): { items: Notice[]; total: number } {
    const where = new Where();
    if (query.type) where.add('type = ?', query.type);
    if (query.status) where.add('status = ?', query.status);
    const { limit, offset } = pageWindow(query.page, query.pageSize);
    const rows = this.db
      .prepare(`SELECT * FROM notice ${where.sql} ORDER BY create_time DESC, rowid DESC LIMIT ? OFFSET ?`)
      .all(...where.params, limit, offset) as unknown as NoticeRecord[];
    const { total } = this.db.prepare(`SELECT COUNT(*) AS total FROM notice ${where.sql}`).get(...where.params) as { total: number };
    return { items: rows.map(toNotice), total };
  }

  findById(id: string): Notice | undefined {
    const r = this.db.prepare('SELECT * FROM notice WHERE id = ?').get(id) as NoticeRecord | undefined;
    return r && toNotice(r);
  }

  insert(n: Notice): void {
    this.db
      .prepare(
        `INSERT INTO notice (type, title, content, status, receiver_type, receiver_ids, created_by, create_time, update_time, publish_time, id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(...params(n));
  }

  update(n: Notice): void {
    this.db
      .prepare(
        `UPDATE notice SET type = ?, title = ?, content = ?, status = ?, receiver_type = ?, receiver_ids = ?, created_by = ?,
         create_time = ?, update_time = ?, publish_time = ? WHERE id = ?`,
      )
      .run(...params(n));
  }

  delete(ids: readonly string[]): number {
    const stmt = this.db.prepare('DELETE FROM notice WHERE id = ?');
    return ids.reduce((n, id) => n + Number(stmt.run(id).changes), 0);
  }

  /** One unread receipt per receiver. */
  addReceipts(noticeId: string, userIds: readonly string[]): void {
    const stmt = this.db.prepare('INSERT OR IGNORE INTO notice_receipt (id, notice_id, user_id, read_time) VALUES (?, ?, ?, NULL)');
    for (const userId of userIds) stmt.run(`${noticeId}:${userId}`, noticeId, userId);
  }

  /** The user's published notices, newest first, with their read state. */
  mine(userId: string, unreadOnly: boolean, page: number, pageSize: number): { items: MyNotice[]; total: number; unread: number } {
    const where = new Where().add('r.user_id = ?', userId).add("n.status = 'PUBLISHED'");
    if (unreadOnly) where.add('r.read_time IS NULL');
    const { limit, offset } = pageWindow(page, pageSize);
    const rows = this.db
      .prepare(
        `SELECT n.*, r.read_time FROM notice_receipt r JOIN notice n ON n.id = r.notice_id ${where.sql}
         ORDER BY n.publish_time DESC, n.rowid DESC LIMIT ? OFFSET ?`,
      )
      .all(...where.params, limit, offset) as unknown as (NoticeRecord & { read_time: number | null })[];
    const count = (sql: string): number =>
      (this.db.prepare(`SELECT COUNT(*) AS total FROM notice_receipt r JOIN notice n ON n.id = r.notice_id ${sql}`).get(...where.params) as { total: number }).total;
    const total = count(where.sql);
    const unread = unreadOnly
      ? total
      : (this.db
          .prepare("SELECT COUNT(*) AS total FROM notice_receipt r JOIN notice n ON n.id = r.notice_id WHERE r.user_id = ? AND n.status = 'PUBLISHED' AND r.read_time IS NULL")
          .get(userId) as { total: number }).total;
    return { items: rows.map((r) => ({ ...toNotice(r), read: r.read_time !== null, readTime: r.read_time })), total, unread };
  }

  /** Marks the receipt read (the first time only); false when the user is not a receiver. */
  markRead(noticeId: string, userId: string, now: number): boolean {
    const exists = this.db.prepare('SELECT 1 FROM notice_receipt WHERE notice_id = ? AND user_id = ?').get(noticeId, userId) !== undefined;
    if (exists) this.db.prepare('UPDATE notice_receipt SET read_time = ? WHERE notice_id = ? AND user_id = ? AND read_time IS NULL').run(now, noticeId, userId);
    return exists;
  }
}
