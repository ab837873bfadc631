/** HTTP for commands and the reboot button (server/contract/command.ts), and ThingsBoard's RPC calls (rpc-routes.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { commandRoutes } from '../../contract/command.ts';
import { fieldErrorFormatter } from '../../lib/field-errors.ts';
import type { Services } from '../../module.ts';
import { registerRpcRoutes } from './rpc-routes.ts';

export function registerCommandRoutes(fastify: FastifyInstance, { commands }: Pick<Services, 'commands'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const schemaErrorFormatter = fieldErrorFormatter({ content: 'error.command.jsonInvalid' });

  app.route({
    ...commandRoutes.send,
    schemaErrorFormatter,
    handler: async (request) => commands.send(request.params.id, request.body),
  });
  app.route({
    ...commandRoutes.list,
    schemaErrorFormatter,
    handler: async (request) => commands.page(request.params.id, request.query),
  });
  app.route({
    ...commandRoutes.withdraw,
    schemaErrorFormatter,
    handler: async (request) => commands.withdraw(request.params.id, request.params.commandId),
  });
  app.route({ ...commandRoutes.reboot, schemaErrorFormatter, handler: async (request) => commands.reboot(request.params.id) });
  registerRpcRoutes(fastify, { commands });
}
