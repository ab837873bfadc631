/** HTTP for the port range (server/contract/port-range.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { portRangeRoutes } from '../../contract/port-range.ts';
import { fieldErrorFormatter } from '../../lib/field-errors.ts';
import type { Services } from '../../module.ts';

export function registerPortRangeRoutes(fastify: FastifyInstance, { portRange }: Pick<Services, 'portRange'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...portRangeRoutes.get, handler: async () => portRange.get() });
  app.route({
    ...portRangeRoutes.save,
    schemaErrorFormatter: fieldErrorFormatter({ start: 'error.portRange.port', end: 'error.portRange.port' }),
    handler: async (request) => portRange.save(request.body),
  });
}
