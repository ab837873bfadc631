/** HTTP for the signed-in user's notifications (server/contract/notification.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { notificationRoutes } from '../../contract/notification.ts';
import type { Services } from '../../module.ts';

export function registerNotificationRoutes(fastify: FastifyInstance, { notifications }: Pick<Services, 'notifications'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...notificationRoutes.list, handler: async (request) => notifications.page(request.user!.id, request.query) });
  app.route({ ...notificationRoutes.read, handler: async (request) => notifications.markRead(request.user!.id, request.body.ids) });
  app.route({ ...notificationRoutes.readAll, handler: async (request) => notifications.markAllRead(request.user!.id) });
}
