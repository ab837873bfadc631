/** HTTP of the rule engine: running a scene by hand (server/contract/scene-linkage.ts, `execute`). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sceneLinkageRoutes } from '../../contract/scene-linkage.ts';
import type { Services } from '../../module.ts';

export function registerRuleEngineRoutes(fastify: FastifyInstance, { ruleEngine, scenes }: Pick<Services, 'ruleEngine' | 'scenes'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.route({
    ...sceneLinkageRoutes.execute,
    handler: async (request) => {
      // A customer runs only the scenes they may see (404 for the others, as if missing).
      scenes.getWithin(request.params.id, request.deviceScope);
      return ruleEngine.execute(request.params.id);
    },
  });
}
