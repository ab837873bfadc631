/** HTTP for branding: public, because the login page shows it before anyone signs in. */
import type { FastifyInstance } from 'fastify';
import { platformRoutes } from '../../contract/platform.ts';
import type { Services } from '../../module.ts';

export function registerPlatformRoutes(app: FastifyInstance, { platform }: Pick<Services, 'platform'>): void {
  app.route({ ...platformRoutes.info, handler: async () => platform.get() });
}
