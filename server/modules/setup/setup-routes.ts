/**
 * First-boot calls: setup state, cloud platform configuration and administrator creation. Access
 * (setup code while no administrator exists, then a signed-in user; 409 after first boot) is the
 * access hook's job, driven by each route's config.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../../app.ts';
import { licenseRoutes } from '../../contract/license.ts';
import { SetupService } from './setup-service.ts';

export async function setupModule(app: FastifyInstance, deps: ModuleDeps): Promise<void> {
  const setup = new SetupService({ db: deps.core.db, users: deps.users, license: deps.license });
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({ ...licenseRoutes.setupState, handler: async () => setup.state() });
  r.route({ ...licenseRoutes.getCloud, handler: async () => setup.cloudView() });
  r.route({ ...licenseRoutes.putCloud, handler: async (request) => setup.saveCloud(request.body) });
  r.route({
    ...licenseRoutes.setupAdmin,
    handler: async (request) => {
      await setup.createAdmin(request.body);
      return { ok: true };
    },
  });
}
