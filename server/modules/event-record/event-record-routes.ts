/**
 * The event record list of a device (server/contract/event-record.ts) over the records the
 * transport stores; the SQL stays with the telemetry repository that owns the table.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../../app.ts';
import { eventRecordRoutes, type EventPage, type EventListQuery, type EventType } from '../../contract/event-record.ts';
import { violationError } from '../../lib/field-errors.ts';
import { TelemetryRepository } from '../telemetry/telemetry-repository.ts';

export async function eventRecordModule(fastify: FastifyInstance, deps: Pick<ModuleDeps, 'core' | 'devices'>): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const rows = new TelemetryRepository(deps.core.db);

  const page = (deviceId: string, query: EventListQuery): EventPage => {
    deps.devices.devices.get(deviceId);
    if (query.startTime !== undefined && query.endTime !== undefined && query.endTime < query.startTime) {
      throw violationError([{ field: 'endTime', key: 'error.event.rangeInvalid' }], 'querystring');
    }
    const { items, total } = rows.eventPage(deviceId, query, query.page, query.pageSize);
    return {
      items: items.map(({ createdTime: _created, ...e }) => ({ ...e, eventType: e.eventType as EventType })),
      total,
    };
  };

  app.route({ ...eventRecordRoutes.list, handler: async (request) => page(request.params.id, request.query) });
}
