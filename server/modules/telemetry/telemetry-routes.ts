/** HTTP for telemetry reads and the retention setting (server/contract/telemetry.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../../app.ts';
import { telemetryRoutes } from '../../contract/telemetry.ts';
import { fieldErrorFormatter } from '../../lib/field-errors.ts';

export async function telemetryModule(fastify: FastifyInstance, deps: ModuleDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { telemetry } = deps;
  const schemaErrorFormatter = fieldErrorFormatter({
    limit: 'error.telemetry.limitTooLarge',
    telemetryRetentionDays: 'error.telemetry.retentionDays',
  });

  app.route({
    ...telemetryRoutes.timeseries,
    schemaErrorFormatter,
    handler: async (request) => telemetry.timeseries(request.params.id, request.query),
  });
  app.route({ ...telemetryRoutes.timeseriesKeys, schemaErrorFormatter, handler: async (request) => telemetry.keys(request.params.id) });
  app.route({
    ...telemetryRoutes.attributes,
    schemaErrorFormatter,
    handler: async (request) => telemetry.attributesOf(request.params.id, request.query.keys),
  });
  app.route({ ...telemetryRoutes.getSettings, schemaErrorFormatter, handler: async () => telemetry.settings() });
  app.route({ ...telemetryRoutes.updateSettings, schemaErrorFormatter, handler: async (request) => telemetry.updateSettings(request.body) });
}
