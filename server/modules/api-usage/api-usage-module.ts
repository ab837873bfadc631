/** The gateway's API usage state through ThingsBoard's entity data query (server/contract/entity-query.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { entityQueryRoutes } from '../../contract/entity-query.ts';
import { defineModule, type Services } from '../../module.ts';
import { ApiUsageService } from './api-usage-service.ts';

declare module '../../module.ts' {
  interface Services {
    apiUsage: ApiUsageService;
  }
}

function registerApiUsageRoutes(fastify: FastifyInstance, { apiUsage }: Pick<Services, 'apiUsage'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...entityQueryRoutes.find, handler: async (request) => apiUsage.find(request.body) });
}

export const apiUsageModule = defineModule({
  name: 'api-usage',
  needs: ['license', 'platform'],
  apiTags: { 'entity-query': "ThingsBoard's entity data query: the gateway's API usage state" },
  build: ({ services }) => ({ apiUsage: new ApiUsageService({ license: services.license, platform: services.platform }) }),
  routes: registerApiUsageRoutes,
});
