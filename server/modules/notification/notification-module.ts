/** Notifications to users (the header bell): created by other modules through `notifications.notify`. */
import type { Notification } from '../../contract/notification.ts';
import { notificationRoutes } from '../../contract/notification.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { defineModule } from '../../module.ts';
import { notificationLive } from './notification-live.ts';
import m0016 from './migrations/0016-notification.sql';
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
  needs: [],
  migrations: [{ name: '0016-notification', sql: m0016 }],
  apiTags: { notification: "The signed-in user's notifications: list, mark read" },
  build: ({ core }) => ({ notifications: new NotificationService({ db: core.db, bus: core.bus }) }),
  live: notificationLive,
  routes: (fastify, { notifications }) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.route({ ...notificationRoutes.list, handler: async (request) => notifications.page(request.user!.id, request.query) });
    app.route({ ...notificationRoutes.read, handler: async (request) => notifications.markRead(request.user!.id, request.body.ids) });
    app.route({ ...notificationRoutes.readAll, handler: async (request) => notifications.markAllRead(request.user!.id) });
  },
});
