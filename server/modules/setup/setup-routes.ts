/**
 * First-boot calls: setup state and administrator creation. Access (setup code while no
 * administrator exists, then a signed-in user; 409 after first boot) is the access hook's job,
 * driven by each route's config.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { licenseRoutes } from '../../contract/license.ts';
import type { Services } from '../../module.ts';

export function registerSetupRoutes(app: FastifyInstance, { setup }: Pick<Services, 'setup'>): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({ ...licenseRoutes.setupState, handler: async () => setup.state() });
  r.route({
    ...licenseRoutes.setupAdmin,
    handler: async (request) => {
      await setup.createAdmin(request.body);
      return { ok: true };
    },
  });
}
