/** HTTP for branding: public, because the login page shows it before anyone signs in. */
import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../app.ts';
import { platformRoutes } from '../../contract/platform.ts';
import { PlatformRepository } from './platform-repository.ts';

export async function platformModule(app: FastifyInstance, deps: ModuleDeps): Promise<void> {
  const platform = new PlatformRepository(deps.core.db);
  app.route({ ...platformRoutes.info, handler: async () => platform.get() });
}
