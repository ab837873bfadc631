/** The event record list of a device (server/contract/event-record.ts), read through the telemetry service that stores the records. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { eventRecordRoutes } from '../../contract/event-record.ts';
import type { Services } from '../../module.ts';

export function registerEventRecordRoutes(fastify: FastifyInstance, { telemetry }: Pick<Services, 'telemetry'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...eventRecordRoutes.list, handler: async (request) => telemetry.eventPage(request.params.id, request.query) });
}
