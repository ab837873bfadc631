/** HTTP for configurations and their share links (server/contract/visualization.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { visualizationRoutes as r } from '../../contract/visualization.ts';
import { fieldErrorFormatter, type FieldKeys } from '../../lib/field-errors.ts';
import type { Services } from '../../module.ts';

const fieldKeys: FieldKeys = {
  name: 'error.visualization.name',
};

export function registerVisualizationRoutes(fastify: FastifyInstance, { visualizations: service, visualizationShares: shares }: Pick<Services, 'visualizations' | 'visualizationShares'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const schemaErrorFormatter = fieldErrorFormatter(fieldKeys);

  app.route({ ...r.list, handler: async (request) => service.page(request.query, request.deviceScope) });
  app.route({ ...r.get, handler: async (request) => service.get(request.params.id, request.deviceScope) });
  app.route({ ...r.create, schemaErrorFormatter, handler: async (request) => service.create(request.body, request.deviceScope) });
  app.route({ ...r.update, schemaErrorFormatter, handler: async (request) => service.update(request.body, request.deviceScope) });
  app.route({ ...r.delete, handler: async (request) => service.delete(request.body.ids, request.deviceScope) });
  app.route({ ...r.share, handler: async (request) => shares.create(request.params.id, request.body, request.user!, request.deviceScope) });
  app.route({
    ...r.unshare,
    handler: async (request) => {
      shares.revoke(request.params.id, request.deviceScope);
      return { ok: true };
    },
  });
  app.route({ ...r.shared, handler: async (request) => shares.shared(request.params.shareToken, request.ip) });
  app.route({ ...r.sharedLatest, handler: async (request) => shares.latest(request.params.shareToken, request.ip) });
  app.route({ ...r.sharedHistory, handler: async (request) => shares.history(request.params.shareToken, request.ip, request.query) });
}
