/** HTTP for the gateway itself; the restart carrying out a factory reset follows its 202 answer. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { systemRoutes } from '../../contract/system.ts';
import { fieldErrorFormatter } from '../../lib/field-errors.ts';
import type { Services } from '../../module.ts';

export function registerSystemRoutes(fastify: FastifyInstance, { system }: Pick<Services, 'system'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...systemRoutes.info, handler: async () => system.info() });
  app.route({
    ...systemRoutes.time,
    schemaErrorFormatter: fieldErrorFormatter({ timeZone: 'error.system.timeZone', ntpServers: 'error.system.ntpServer', time: 'error.system.time' }),
    handler: async (request) => system.setTime(request.body),
  });
  app.route({
    ...systemRoutes.reset,
    schemaErrorFormatter: fieldErrorFormatter({ password: 'error.system.password', confirm: 'error.system.confirm' }),
    handler: async (request, reply) => {
      await system.requestReset(request.user!, request.body, request.ip);
      return reply.code(202).send({ accepted: true });
    },
    // Only once the answer is out: the restart closes this server.
    onResponse: async (_request, reply) => {
      if (reply.statusCode === 202) system.restart();
    },
  });
}
