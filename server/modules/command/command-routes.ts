/** HTTP for commands and the reboot button (server/contract/command.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../../app.ts';
import { commandRoutes } from '../../contract/command.ts';
import { fieldErrorFormatter } from '../../lib/field-errors.ts';
import type { CommandModelChecks } from './command-content.ts';
import { CommandService, type CommandTransport } from './command-service.ts';

export interface CommandModuleDeps extends Pick<ModuleDeps, 'core' | 'devices'> {
  transport: CommandTransport;
  models: CommandModelChecks;
}

export async function commandModule(fastify: FastifyInstance, deps: CommandModuleDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const commands = new CommandService({
    db: deps.core.db,
    bus: deps.core.bus,
    devices: deps.devices.devices,
    transport: deps.transport,
    models: deps.models,
    log: app.log,
  });
  app.addHook('onClose', async () => commands.close());
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
}
