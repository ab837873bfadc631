/** HTTP for protocol modules (server/contract/protocol-module.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { PROTOCOL_MODULE_MAX_BYTES, protocolModuleRoutes } from '../../contract/protocol-module.ts';
import type { Services } from '../../module.ts';

export async function registerProtocolModuleRoutes(fastify: FastifyInstance, { protocolModules }: Pick<Services, 'protocolModules'>): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const r = protocolModuleRoutes;
  app.route({ ...r.list, handler: async (request) => protocolModules.page(request.query) });
  app.route({ ...r.get, handler: async (request) => protocolModules.get(request.params.id) });
  // Module files may be up to 5 MB, past the app's 1 MB body limit.
  app.route({ ...r.upload, bodyLimit: PROTOCOL_MODULE_MAX_BYTES, handler: async (request) => protocolModules.upload(request.body) });
  app.route({
    ...r.download,
    handler: async (request, reply) => {
      const file = protocolModules.download(request.params.id);
      const name = encodeURIComponent(`${file.name}.json`);
      void reply.header('content-disposition', `attachment; filename*=UTF-8''${name}`);
      return file;
    },
  });
  app.route({ ...r.remove, handler: async (request) => protocolModules.remove(request.body.ids) });
  app.route({ ...r.install, handler: async (request) => protocolModules.install(request.params.id, request.body.instanceId) });
}
