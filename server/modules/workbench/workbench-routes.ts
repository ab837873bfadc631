/** HTTP for the workbench (server/contract/workbench.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { workbenchRoutes } from '../../contract/workbench.ts';
import type { Services } from '../../module.ts';

export function registerWorkbenchRoutes(fastify: FastifyInstance, { workbench }: Pick<Services, 'workbench'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({ ...workbenchRoutes.summary, handler: async (request) => workbench.summary(request.deviceScope, request.productScope) });
  app.route({
    ...workbenchRoutes.messages,
    handler: async (request) => {
      workbench.assertWholeGateway(request.deviceScope);
      return workbench.messageVolume(request.query);
    },
  });
}
