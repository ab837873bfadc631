/** HTTP for the map tile URL; who may call is the access hook's job (route access 'user'). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { mapRoutes } from '../../contract/map.ts';
import { fieldErrorFormatter } from '../../lib/field-errors.ts';
import type { Services } from '../../module.ts';

export function registerMapRoutes(fastify: FastifyInstance, { mapSettings }: Pick<Services, 'mapSettings'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...mapRoutes.get, handler: async () => mapSettings.get() });
  app.route({
    ...mapRoutes.save,
    schemaErrorFormatter: fieldErrorFormatter({ tileUrl: 'error.map.tileUrl' }),
    handler: async (request) => mapSettings.save(request.body),
  });
}
