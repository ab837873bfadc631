/** HTTP for alarms (server/contract/alarm.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { alarmRoutes } from '../../contract/alarm.ts';
import type { Services } from '../../module.ts';

export function registerAlarmRoutes(fastify: FastifyInstance, { alarms }: Pick<Services, 'alarms'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...alarmRoutes.list, handler: async (request) => alarms.page(request.query) });
  app.route({ ...alarmRoutes.get, handler: async (request) => alarms.get(request.params.id) });
  app.route({ ...alarmRoutes.ack, handler: async (request) => alarms.ack(request.params.id) });
  app.route({ ...alarmRoutes.clear, handler: async (request) => alarms.clear(request.params.id) });
  app.route({ ...alarmRoutes.batchAck, handler: async (request) => alarms.batchAck(request.body.alarmIds) });
  app.route({ ...alarmRoutes.batchClear, handler: async (request) => alarms.batchClear(request.body.alarmIds) });
  app.route({ ...alarmRoutes.profile, handler: async (request) => alarms.profile(request.params.organizationId) });
}
