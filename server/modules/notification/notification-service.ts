/**
 * Notifications per user (server/contract/notification.ts). `notify` is the call other modules use
 * (the rule engine's MSG_NOTIFY; published notices later). Changes are announced as
 * `notification.changed` for the user's live NOTIFICATIONS views.
 */
import type { Notification, NotificationInfo, NotificationListQuery, NotificationPage, NotificationReadResult, NotificationType } from '../../contract/notification.ts';
import { NOTIFICATIONS_KEEP_PER_USER } from '../../contract/notification.ts';
import { transaction, type Db } from '../../db/sqlite.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { newId } from '../../lib/ids.ts';
import type { AccountService } from '../auth/account-service.ts';
import { NotificationRepository } from './notification-repository.ts';

export interface NotifyInput {
  /** Who gets it; none: every user. */
  userIds?: readonly string[];
  type: NotificationType;
  subject: string;
  text: string | null;
  info: NotificationInfo;
}

export class NotificationService {
  private readonly rows: NotificationRepository;

  constructor(private readonly deps: { db: Db; bus: EventBus; accounts: Pick<AccountService, 'allIds'> }) {
    this.rows = new NotificationRepository(deps.db);
  }

  /** Creates one notification per recipient and announces each. */
  notify(input: NotifyInput): Notification[] {
    const now = Date.now();
    const created = transaction(this.deps.db, () => {
      // Every user for now (the gateway has a handful), read in the same transaction.
      const users = input.userIds ?? this.deps.accounts.allIds();
      return users.map((userId) => {
        const n: Notification = { id: newId(), type: input.type, subject: input.subject, text: input.text, info: input.info, status: 'SENT', createdTime: now };
        this.rows.insertKeepingNewest(userId, n, NOTIFICATIONS_KEEP_PER_USER);
        return { userId, notification: n };
      });
    });
    for (const { userId, notification } of created) this.deps.bus.emit('notification.changed', { userId, created: notification });
    return created.map((c) => c.notification);
  }

  page(userId: string, query: NotificationListQuery): NotificationPage {
    const { items, total } = this.rows.page(userId, query.unreadOnly === true, query.page, query.pageSize);
    return { items, total, unreadCount: this.unreadCount(userId) };
  }

  /** The newest `limit` unread notifications of a user. */
  unread(userId: string, limit: number): Notification[] {
    return this.page(userId, { page: 1, pageSize: limit, unreadOnly: true }).items;
  }

  unreadCount(userId: string): number {
    return this.rows.unreadCount(userId);
  }

  /** Marks the user's own notifications among `ids` read; others' and unknown ids are skipped. */
  markRead(userId: string, ids: readonly string[]): NotificationReadResult {
    return this.afterRead(userId, this.rows.markRead(userId, ids));
  }

  markAllRead(userId: string): NotificationReadResult {
    return this.afterRead(userId, this.rows.markRead(userId));
  }

  private afterRead(userId: string, updated: number): NotificationReadResult {
    if (updated > 0) this.deps.bus.emit('notification.changed', { userId, created: null });
    return { updated, unreadCount: this.unreadCount(userId) };
  }
}
