/** HTTP of scenes: CRUD, switching on and off, and the execution log (server/contract/scene-linkage.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sceneLinkageRoutes } from '../../contract/scene-linkage.ts';
import type { Services } from '../../module.ts';

export function registerSceneLinkageRoutes(fastify: FastifyInstance, { scenes }: Pick<Services, 'scenes'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const r = sceneLinkageRoutes;
  // A customer sees only the hand-run scenes within their device scope (scene-service.ts, visibleIn).
  app.route({ ...r.list, handler: async (request) => scenes.page(request.query, request.deviceScope) });
  app.route({ ...r.get, handler: async (request) => scenes.getWithin(request.params.id, request.deviceScope) });
  app.route({ ...r.create, handler: async (request) => scenes.create(request.body) });
  app.route({ ...r.update, handler: async (request) => scenes.update(request.body) });
  app.route({ ...r.remove, handler: async (request) => scenes.delete(request.body.ids) });
  app.route({ ...r.setEnabled, handler: async (request) => scenes.setEnabled(request.params.id, request.body.enabled) });
  app.route({
    ...r.log,
    handler: async (request) => {
      scenes.getWithin(request.params.id, request.deviceScope);
      return scenes.logPage(request.params.id, request.query.page, request.query.pageSize);
    },
  });
}
