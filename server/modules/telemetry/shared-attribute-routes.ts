/** HTTP for attributes by scope (server/contract/shared-attributes.ts), ThingsBoard's paths. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sharedAttributeRoutes as routes } from '../../contract/shared-attributes.ts';
import type { Services } from '../../module.ts';
import { keyList } from '../../lib/device-payload.ts';

export function registerSharedAttributeRoutes(fastify: FastifyInstance, { sharedAttributes }: Pick<Services, 'sharedAttributes'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // ThingsBoard answers a write with 200 and no body.
  for (const save of [routes.save, routes.saveV1, routes.saveByDevice]) {
    app.route({
      ...save,
      handler: async (request, reply) => {
        sharedAttributes.save(request.params.id, request.body);
        return reply.code(200).send();
      },
    });
  }
  for (const remove of [routes.delete, routes.deleteByDevice]) {
    app.route({
      ...remove,
      handler: async (request, reply) => {
        sharedAttributes.delete(request.params.id, keyList(request.query.keys));
        return reply.code(200).send();
      },
    });
  }
  app.route({
    ...routes.values,
    handler: async (request) => sharedAttributes.values(request.params.id, request.params.scope, keyList(request.query.keys)),
  });
  app.route({ ...routes.keys, handler: async (request) => sharedAttributes.keys(request.params.id, null) });
  app.route({ ...routes.scopeKeys, handler: async (request) => sharedAttributes.keys(request.params.id, request.params.scope) });
}
