/** HTTP for the Modbus calls (server/contract/modbus.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { modbusRoutes } from '../../contract/modbus.ts';
import { langFromAcceptLanguage } from '../../lib/messages.ts';
import type { ModbusService } from './modbus-service.ts';
import { registerPointTableRoutes } from './point-table-routes.ts';
import type { Services } from '../../module.ts';

export async function registerModbusRoutes(fastify: FastifyInstance, { modbus, thingModels, products }: { modbus: ModbusService } & Pick<Services, 'thingModels' | 'products'>): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const lang = (headers: { 'accept-language'?: string }) => langFromAcceptLanguage(headers['accept-language']);
  app.route({ ...modbusRoutes.link, handler: async (request) => modbus.link(request.params.id) });
  app.route({ ...modbusRoutes.points, handler: async (request) => modbus.points(request.params.id, lang(request.headers)) });
  app.route({ ...modbusRoutes.read, handler: async (request) => modbus.read(request.params.id, request.body.identifiers, lang(request.headers)) });
  app.route({ ...modbusRoutes.write, handler: async (request) => modbus.write(request.params.id, request.body, lang(request.headers)) });
  app.route({ ...modbusRoutes.plan, handler: async (request) => modbus.plan(request.params.id, request.query.source ?? 'published') });
  await registerPointTableRoutes(fastify, { thingModels, products });
}
