/** Notifications to users (the header bell): created by other modules through `notifications.notify`. */
import type { Notification } from '../../contract/notification.ts';
import { defineModule } from '../../module.ts';
import { notificationLive } from './notification-live.ts';
import m0016 from './migrations/0016-notification.sql';
import { registerNotificationRoutes } from './notification-routes.ts';
import { NotificationService } from './notification-service.ts';

declare module '../../module.ts' {
  interface Services {
    notifications: NotificationService;
  }
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** A user's notifications changed: `created` is the new one, null after marks as read. */
    'notification.changed': { userId: string; created: Notification | null };
  }
}

export const notificationModule = defineModule({
  name: 'notification',
  needs: ['accounts'],
  migrations: [{ name: '0016-notification', sql: m0016 }],
  apiTags: { notification: "The signed-in user's notifications: list, mark read" },
  build: ({ core, services }) => ({ notifications: new NotificationService({ db: core.db, bus: core.bus, accounts: services.accounts }) }),
  live: notificationLive,
  routes: registerNotificationRoutes,
});
