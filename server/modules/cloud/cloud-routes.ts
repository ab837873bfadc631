/** HTTP for the cloud platform configuration; who may call is the access hook's job (route access 'setup'). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { cloudRoutes } from '../../contract/cloud.ts';
import type { Services } from '../../module.ts';

export function registerCloudRoutes(fastify: FastifyInstance, { cloud }: Pick<Services, 'cloud'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...cloudRoutes.get, handler: async () => cloud.view() });
  app.route({ ...cloudRoutes.save, handler: async (request) => cloud.save(request.body) });
}
