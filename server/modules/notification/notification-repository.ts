/** SQL for `notification`; camelCase notifications in, snake_case columns out. */
import type { Notification, NotificationInfo, NotificationStatus, NotificationType } from '../../contract/notification.ts';
import type { Db } from '../../db/sqlite.ts';
import { pageWindow } from '../../db/list-query.ts';

interface NotificationRecord {
  id: string;
  user_id: string;
  type: NotificationType;
  subject: string;
  text: string | null;
  info: string;
  status: NotificationStatus;
  create_time: number;
}

function toNotification(r: NotificationRecord): Notification {
  return { id: r.id, type: r.type, subject: r.subject, text: r.text, info: JSON.parse(r.info) as NotificationInfo, status: r.status, createdTime: r.create_time };
}

export class NotificationRepository {
  constructor(private readonly db: Db) {}

  /** Stores `n` for the user and drops all but the user's newest `keep`; the caller holds the transaction. */
  insertKeepingNewest(userId: string, n: Notification, keep: number): void {
    this.db
      .prepare('INSERT INTO notification (id, user_id, type, subject, text, info, status, create_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(n.id, userId, n.type, n.subject, n.text, JSON.stringify(n.info), n.status, n.createdTime);
    this.db
      .prepare(
        'DELETE FROM notification WHERE user_id = ? AND id NOT IN (SELECT id FROM notification WHERE user_id = ? ORDER BY create_time DESC, rowid DESC LIMIT ?)',
      )
      .run(userId, userId, keep);
  }

  /** One page of the user's notifications, newest first, and the total under the same filter. */
  page(userId: string, unreadOnly: boolean, page: number, pageSize: number): { items: Notification[]; total: number } {
    const unread = unreadOnly ? " AND status = 'SENT'" : '';
    const { limit, offset } = pageWindow(page, pageSize);
    const rows = this.db
      .prepare(`SELECT * FROM notification WHERE user_id = ?${unread} ORDER BY create_time DESC, rowid DESC LIMIT ? OFFSET ?`)
      .all(userId, limit, offset) as unknown as NotificationRecord[];
    const { n } = this.db.prepare(`SELECT COUNT(*) AS n FROM notification WHERE user_id = ?${unread}`).get(userId) as { n: number };
    return { items: rows.map(toNotification), total: n };
  }

  unreadCount(userId: string): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM notification WHERE user_id = ? AND status = 'SENT'").get(userId) as { n: number }).n;
  }

  /** Marks the user's unread notifications among `ids` (all of them: undefined) read; returns how many changed. */
  markRead(userId: string, ids?: readonly string[]): number {
    if (ids === undefined) {
      return Number(this.db.prepare("UPDATE notification SET status = 'READ' WHERE user_id = ? AND status = 'SENT'").run(userId).changes);
    }
    const marks = ids.map(() => '?').join(', ');
    return Number(
      this.db.prepare(`UPDATE notification SET status = 'READ' WHERE user_id = ? AND status = 'SENT' AND id IN (${marks})`).run(userId, ...ids).changes,
    );
  }
}
