/**
 * Notifications per user (server/contract/notification.ts). `notify` is the call other modules use
 * (the rule engine's MSG_NOTIFY; published notices later). Changes are announced as
 * `notification.changed` for the user's live NOTIFICATIONS views.
 */
import type { Notification, NotificationInfo, NotificationListQuery, NotificationPage, NotificationReadResult, NotificationStatus, NotificationType } from '../../contract/notification.ts';
import { NOTIFICATIONS_KEEP_PER_USER } from '../../contract/notification.ts';
import { transaction, type Db } from '../../db/sqlite.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { newId } from '../../lib/ids.ts';
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

export interface NotifyInput {
  /** Who gets it; none: every user. */
  userIds?: readonly string[];
  type: NotificationType;
  subject: string;
  text: string | null;
  info: NotificationInfo;
}

export class NotificationService {
  constructor(private readonly deps: { db: Db; bus: EventBus }) {}

  /** Creates one notification per recipient and announces each. */
  notify(input: NotifyInput): Notification[] {
    const { db } = this.deps;
    const now = Date.now();
    const created = transaction(db, () => {
      // Every user for now: the user table is read here rather than through the accounts service
      // so that one statement serves a broadcast (the gateway has a handful of users).
      const users = input.userIds ?? (db.prepare('SELECT id FROM user').all() as { id: string }[]).map((r) => r.id);
      const insert = db.prepare('INSERT INTO notification (id, user_id, type, subject, text, info, status, create_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
      const prune = db.prepare(
        'DELETE FROM notification WHERE user_id = ? AND id NOT IN (SELECT id FROM notification WHERE user_id = ? ORDER BY create_time DESC, rowid DESC LIMIT ?)',
      );
      return users.map((userId) => {
        const n: Notification = { id: newId(), type: input.type, subject: input.subject, text: input.text, info: input.info, status: 'SENT', createdTime: now };
        insert.run(n.id, userId, n.type, n.subject, n.text, JSON.stringify(n.info), n.status, n.createdTime);
        prune.run(userId, userId, NOTIFICATIONS_KEEP_PER_USER);
        return { userId, notification: n };
      });
    });
    for (const { userId, notification } of created) this.deps.bus.emit('notification.changed', { userId, created: notification });
    return created.map((c) => c.notification);
  }

  page(userId: string, query: NotificationListQuery): NotificationPage {
    const unread = query.unreadOnly ? " AND status = 'SENT'" : '';
    const { limit, offset } = pageWindow(query.page, query.pageSize);
    const rows = this.deps.db
      .prepare(`SELECT * FROM notification WHERE user_id = ?${unread} ORDER BY create_time DESC, rowid DESC LIMIT ? OFFSET ?`)
      .all(userId, limit, offset) as unknown as NotificationRecord[];
    const { n } = this.deps.db.prepare(`SELECT COUNT(*) AS n FROM notification WHERE user_id = ?${unread}`).get(userId) as { n: number };
    return { items: rows.map(toNotification), total: n, unreadCount: this.unreadCount(userId) };
  }

  /** The newest `limit` unread notifications of a user. */
  unread(userId: string, limit: number): Notification[] {
    return this.page(userId, { page: 1, pageSize: limit, unreadOnly: true }).items;
  }

  unreadCount(userId: string): number {
    return (this.deps.db.prepare("SELECT COUNT(*) AS n FROM notification WHERE user_id = ? AND status = 'SENT'").get(userId) as { n: number }).n;
  }

  /** Marks the user's own notifications among `ids` read; others' and unknown ids are skipped. */
  markRead(userId: string, ids: readonly string[]): NotificationReadResult {
    const marks = ids.map(() => '?').join(', ');
    const { changes } = this.deps.db
      .prepare(`UPDATE notification SET status = 'READ' WHERE user_id = ? AND status = 'SENT' AND id IN (${marks})`)
      .run(userId, ...ids);
    return this.afterRead(userId, Number(changes));
  }

  markAllRead(userId: string): NotificationReadResult {
    const { changes } = this.deps.db.prepare("UPDATE notification SET status = 'READ' WHERE user_id = ? AND status = 'SENT'").run(userId);
    return this.afterRead(userId, Number(changes));
  }

  private afterRead(userId: string, updated: number): NotificationReadResult {
    if (updated > 0) this.deps.bus.emit('notification.changed', { userId, created: null });
    return { updated, unreadCount: this.unreadCount(userId) };
  }
}
