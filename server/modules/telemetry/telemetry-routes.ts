/** HTTP for telemetry reads and the retention setting (server/contract/telemetry.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { telemetryRoutes } from '../../contract/telemetry.ts';
import { fieldErrorFormatter } from '../../lib/field-errors.ts';
import type { Services } from '../../module.ts';
import { keyList } from '../../lib/device-payload.ts';

export function registerTelemetryRoutes(fastify: FastifyInstance, { telemetry, sharedAttributes }: Pick<Services, 'telemetry' | 'sharedAttributes'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const schemaErrorFormatter = fieldErrorFormatter({
    limit: 'error.telemetry.limitTooLarge',
    telemetryRetentionDays: 'error.telemetry.retentionDays',
  });

  app.route({
    ...telemetryRoutes.timeseries,
    schemaErrorFormatter,
    // ThingsBoard's default is text (useStrictDataTypes=false); the service's own callers read typed values.
    handler: async (request) => telemetry.timeseries(request.params.id, { ...request.query, useStrictDataTypes: request.query.useStrictDataTypes ?? false }),
  });
  app.route({
    ...telemetryRoutes.save,
    schemaErrorFormatter,
    // ThingsBoard answers a write with 200 and no body.
    handler: async (request, reply) => {
      await telemetry.saveTimeseries(request.params.id, request.body);
      return reply.code(200).send();
    },
  });
  app.route({ ...telemetryRoutes.timeseriesKeys, schemaErrorFormatter, handler: async (request) => telemetry.keys(request.params.id) });
  app.route({
    ...telemetryRoutes.attributes,
    schemaErrorFormatter,
    // ThingsBoard's unscoped read answers every scope: client, then shared.
    handler: async (request) => sharedAttributes.values(request.params.id, null, keyList(request.query.keys)),
  });
  app.route({ ...telemetryRoutes.getSettings, schemaErrorFormatter, handler: async () => telemetry.settings() });
  app.route({ ...telemetryRoutes.updateSettings, schemaErrorFormatter, handler: async (request) => telemetry.updateSettings(request.body) });
}
