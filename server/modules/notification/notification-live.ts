/**
 * The notification module's live commands on /api/ws (server/live.ts; server/contract/realtime.ts):
 * NOTIFICATIONS and NOTIFICATIONS_COUNT answer the signed-in user's unread notifications and follow
 * that user's `notification.changed`; MARK_NOTIFICATIONS_AS_READ and MARK_ALL_NOTIFICATIONS_AS_READ
 * have no answer of their own, as in ThingsBoard: the user's subscriptions update.
 */
import type { Notification } from '../../contract/notification.ts';
import {
  MarkAllNotificationsAsReadCmdSchema,
  MarkNotificationsAsReadCmdSchema,
  NOTIFICATIONS_LIMIT_DEFAULT,
  NotificationsCmdSchema,
  NotificationsCountCmdSchema,
  WsErrorCode,
  type MarkNotificationsAsReadCmd,
  type NotificationsCmd,
} from '../../contract/realtime.ts';
import { Followers } from '../../lib/followers.ts';
import { liveCommand, type LiveCommands, type LiveContext, type LiveRequest, type LiveSubscription } from '../../live.ts';
import type { Services } from '../../module.ts';
import type { NotificationService } from './notification-service.ts';

type LiveNotifications = Pick<NotificationService, 'unread' | 'unreadCount'>;

/** A subscription to one user's notifications: every change of that user's is handed to `changed`. */
interface NotificationFollower {
  start(): void;
  changed(created: Notification | null): void;
  close?(): void;
}

class NotificationsSubscription implements NotificationFollower {
  constructor(
    private readonly request: LiveRequest<unknown>,
    private readonly notifications: LiveNotifications,
    private readonly limit: number,
  ) {}

  start(): void {
    this.sendList();
  }

  changed(created: Notification | null): void {
    if (!created) {
      this.sendList();
      return;
    }
    const { cmdId, user } = this.request;
    const totalUnreadCount = this.notifications.unreadCount(user.id);
    this.request.send({ cmdId, errorCode: WsErrorCode.NO_ERROR, errorMsg: null, totalUnreadCount, notifications: null, update: created, cmdUpdateType: 'NOTIFICATIONS' });
  }

  private sendList(): void {
    const { cmdId, user } = this.request;
    this.request.send({
      cmdId,
      errorCode: WsErrorCode.NO_ERROR,
      errorMsg: null,
      totalUnreadCount: this.notifications.unreadCount(user.id),
      notifications: this.notifications.unread(user.id, this.limit),
      update: null,
      cmdUpdateType: 'NOTIFICATIONS',
    });
  }
}

class NotificationsCountSubscription implements NotificationFollower {
  constructor(
    private readonly request: LiveRequest<unknown>,
    private readonly notifications: LiveNotifications,
  ) {}

  start(): void {
    this.changed();
  }

  changed(): void {
    const { cmdId, user } = this.request;
    const totalUnreadCount = this.notifications.unreadCount(user.id);
    this.request.send({ cmdId, errorCode: WsErrorCode.NO_ERROR, errorMsg: null, totalUnreadCount, cmdUpdateType: 'NOTIFICATIONS_COUNT' });
  }
}

export function notificationLive({ notifications }: Pick<Services, 'notifications'>, { bus, log }: LiveContext): LiveCommands {
  const byUser = new Followers<NotificationFollower>(log);
  bus.on('notification.changed', ({ userId, created }) => byUser.each(userId, (sub) => sub.changed(created)));

  const follow = (request: LiveRequest<unknown>, sub: NotificationFollower): LiveSubscription => {
    sub.start();
    const unfollow = byUser.add([request.user.id], sub);
    return { close: unfollow };
  };

  return {
    NOTIFICATIONS: liveCommand<NotificationsCmd>({
      schema: NotificationsCmdSchema,
      updateType: 'NOTIFICATIONS',
      kind: 'subscription',
      open: (request) => follow(request, new NotificationsSubscription(request, notifications, request.body.limit ?? NOTIFICATIONS_LIMIT_DEFAULT)),
    }),
    NOTIFICATIONS_COUNT: liveCommand({
      schema: NotificationsCountCmdSchema,
      updateType: 'NOTIFICATIONS_COUNT',
      kind: 'subscription',
      open: (request) => follow(request, new NotificationsCountSubscription(request, notifications)),
    }),
    MARK_NOTIFICATIONS_AS_READ: liveCommand<MarkNotificationsAsReadCmd>({
      schema: MarkNotificationsAsReadCmdSchema,
      updateType: null,
      kind: 'request',
      open: (request) => {
        notifications.markRead(request.user.id, request.body.notifications);
      },
    }),
    MARK_ALL_NOTIFICATIONS_AS_READ: liveCommand({
      schema: MarkAllNotificationsAsReadCmdSchema,
      updateType: null,
      kind: 'request',
      open: (request) => {
        notifications.markAllRead(request.user.id);
      },
    }),
  };
}
