/**
 * ThingsBoard's RPC REST calls (server/contract/rpc.ts) over the command pipeline: each call is an
 * API command, recorded and delivered as any other; the answer is mapped to ThingsBoard's statuses.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Command } from '../../contract/command.ts';
import { ErrorCode } from '../../contract/errors.ts';
import { rpcRouteKinds, rpcRoutes, rpcStatuses, type RpcBody } from '../../contract/rpc.ts';
import { AppError } from '../../lib/app-error.ts';
import type { CommandService } from './command-service.ts';

type Statuses = (typeof rpcStatuses)[keyof typeof rpcStatuses];

function offline(statuses: Statuses): AppError {
  // 409 is the catalogue's conflict (code 35); a 504 is a gateway failure (code 2).
  const code = statuses.offline === 409 ? ErrorCode.VERSION_CONFLICT : ErrorCode.GENERAL;
  return new AppError(code, 'error.rpc.deviceOffline', {}, { status: statuses.offline, expected: true });
}

async function call(commands: CommandService, deviceId: string, way: 'oneway' | 'twoway', body: RpcBody, statuses: Statuses): Promise<Command> {
  try {
    return await commands.send(deviceId, {
      commandType: 'API',
      callType: body.persistent ? 'ASYNC' : 'SYNC',
      way,
      content: { method: body.method, params: body.params === undefined ? {} : body.params },
      ...(body.timeout === undefined ? {} : { timeoutMs: body.timeout }),
    });
  } catch (err) {
    if (err instanceof AppError && err.key === 'error.command.deviceOffline') throw offline(statuses);
    throw err;
  }
}

export function registerRpcRoutes(fastify: FastifyInstance, { commands }: { commands: CommandService }): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  for (const name of Object.keys(rpcRoutes) as (keyof typeof rpcRoutes)[]) {
    const { version, way } = rpcRouteKinds[name];
    const statuses = rpcStatuses[version];
    app.route({
      ...rpcRoutes[name],
      handler: async (request, reply) => {
        const command = await call(commands, request.params.id, way, request.body, statuses);
        if (request.body.persistent) return { rpcId: command.id };
        switch (command.status) {
          case 'SENT':
          case 'DELIVERED':
          case 'SUCCESSFUL':
            // An answer is JSON text already; none (one-way, or an empty answer) is an empty 200.
            if (command.responseType === 'JSON' && command.responseContent !== null) {
              return reply.type('application/json').send(command.responseContent);
            }
            if (command.responseType === 'TEXT' && command.responseContent) {
              throw new AppError(ErrorCode.GENERAL, 'error.rpc.answerNotJson', {}, { status: 406 });
            }
            return reply.send();
          case 'FAILED':
          case 'QUEUED':
            throw offline(statuses);
          default:
            // TIMEOUT, and a command withdrawn while waiting: ThingsBoard's timeout answer.
            throw new AppError(ErrorCode.GENERAL, 'error.rpc.timeout', {}, { status: statuses.timeout, expected: true });
        }
      },
    });
  }
}
