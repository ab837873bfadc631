/** HTTP for account administration and the signed-in user's permissions (server/contract/user-admin.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { userAdminRoutes } from '../../contract/user-admin.ts';
import type { Services } from '../../module.ts';

export async function registerUserAdminRoutes(fastify: FastifyInstance, { userAdmin }: Pick<Services, 'userAdmin'>): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...userAdminRoutes.myPermissions, handler: async (request) => userAdmin.myPermissions(request.user!) });
  app.route({ ...userAdminRoutes.list, handler: async (request) => userAdmin.page(request.query) });
  app.route({ ...userAdminRoutes.create, handler: async (request) => userAdmin.create(request.body) });
  app.route({ ...userAdminRoutes.update, handler: async (request) => userAdmin.update(request.body) });
  app.route({ ...userAdminRoutes.delete, handler: async (request) => userAdmin.delete(request.body.ids) });
  app.route({
    ...userAdminRoutes.resetPassword,
    handler: async (request) => {
      await userAdmin.resetPassword(request.body.id, request.body.password);
      return { ok: true as const };
    },
  });
}
