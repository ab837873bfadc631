/** HTTP for the workbench (server/contract/workbench.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../../app.ts';
import { workbenchRoutes } from '../../contract/workbench.ts';
import { MessageCounter } from './message-counter.ts';
import { WorkbenchService } from './workbench-service.ts';

export async function workbenchModule(fastify: FastifyInstance, deps: ModuleDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const messages = new MessageCounter(deps.core.db, deps.core.bus);
  app.addHook('onClose', async () => messages.close());
  const workbench = new WorkbenchService({ devices: deps.devices, messages, dataDir: deps.core.config.dataDir });

  app.route({ ...workbenchRoutes.summary, handler: async () => workbench.summary() });
  app.route({ ...workbenchRoutes.messages, handler: async (request) => workbench.messageVolume(request.query) });
}
