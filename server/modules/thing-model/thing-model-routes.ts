/** HTTP for thing models (server/contract/thing-model.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { TSL_MAX_BYTES, thingModelRoutes } from '../../contract/thing-model.ts';
import { fieldErrorFormatter } from '../../lib/field-errors.ts';
import type { Services } from '../../module.ts';
import { thingModelFieldKeys } from './data-type-rules.ts';

export function registerThingModelRoutes(fastify: FastifyInstance, { thingModels: service }: Pick<Services, 'thingModels'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const schemaErrorFormatter = fieldErrorFormatter(thingModelFieldKeys);
  const routes = thingModelRoutes;

  app.route({ ...routes.list, schemaErrorFormatter, handler: async (req) => service.page(req.params.deviceProfileId, req.query) });
  app.route({ ...routes.create, schemaErrorFormatter, handler: async (req) => service.create(req.body) });
  app.route({ ...routes.update, schemaErrorFormatter, handler: async (req) => service.update(req.body) });
  app.route({ ...routes.delete, schemaErrorFormatter, handler: async (req) => service.delete(req.body.ids) });
  app.route({ ...routes.publish, schemaErrorFormatter, handler: async (req) => service.publish(req.params.deviceProfileId) });
  app.route({ ...routes.status, schemaErrorFormatter, handler: async (req) => service.status(req.params.deviceProfileId) });
  app.route({
    ...routes.exportTsl,
    schemaErrorFormatter,
    handler: async (req) => service.exportTsl(req.params.deviceProfileId, req.query.published ?? false),
  });
  app.route({
    ...routes.importTsl,
    // Model files may be up to 5 MB, past the app's 1 MB body limit.
    bodyLimit: TSL_MAX_BYTES,
    schemaErrorFormatter,
    handler: async (req) => service.importTsl(req.params.deviceProfileId, req.body),
  });
}
