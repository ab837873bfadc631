/** HTTP of the API usage state: ThingsBoard's entity data query (server/contract/entity-query.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { entityQueryRoutes } from '../../contract/entity-query.ts';
import type { Services } from '../../module.ts';

export function registerApiUsageRoutes(fastify: FastifyInstance, { apiUsage }: Pick<Services, 'apiUsage'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...entityQueryRoutes.find, handler: async (request) => apiUsage.find(request.body) });
}
