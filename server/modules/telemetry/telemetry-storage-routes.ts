/** HTTP for history storage: its state and products' own retention (server/contract/telemetry-storage.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { telemetryStorageRoutes } from '../../contract/telemetry-storage.ts';
import { fieldErrorFormatter } from '../../lib/field-errors.ts';
import type { Services } from '../../module.ts';

export function registerTelemetryStorageRoutes(fastify: FastifyInstance, { telemetryStorage }: Pick<Services, 'telemetryStorage'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const schemaErrorFormatter = fieldErrorFormatter({ retentionDays: 'error.telemetry.retentionDays' });
  app.route({ ...telemetryStorageRoutes.storage, schemaErrorFormatter, handler: async () => telemetryStorage.state() });
  app.route({
    ...telemetryStorageRoutes.setProductRetention,
    schemaErrorFormatter,
    handler: async (request) => telemetryStorage.setProductRetention(request.params.id, request.body),
  });
}
