/** HTTP for branding: the GET is public, because the login page shows it before anyone signs in. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { PLATFORM_INFO_BODY_LIMIT, platformRoutes } from '../../contract/platform.ts';
import { checkImageRef } from '../../lib/image-signature.ts';
import type { Services } from '../../module.ts';

export function registerPlatformRoutes(fastify: FastifyInstance, { platform }: Pick<Services, 'platform'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...platformRoutes.info, handler: async () => platform.get() });
  app.route({
    ...platformRoutes.update,
    bodyLimit: PLATFORM_INFO_BODY_LIMIT,
    handler: async (request) => {
      const { name, logo, icon, slogan } = request.body;
      checkImageRef(logo);
      checkImageRef(icon);
      return platform.update({ name: name.trim(), logo, icon, slogan: slogan?.trim() || null });
    },
  });
}
