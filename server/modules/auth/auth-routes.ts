/** HTTP for the session calls: sign-in, refresh-token rotation, logout. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authRoutes } from '../../contract/auth.ts';
import { acceptUrlEncodedBodies } from '../../lib/form-bodies.ts';
import type { Services } from '../../module.ts';

export function registerAuthRoutes(fastify: FastifyInstance, { sessions }: Pick<Services, 'sessions'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  acceptUrlEncodedBodies(app);

  app.route({
    ...authRoutes.login,
    // A throttled sign-in answers 429 with Retry-After (the errors plugin sets it from the seconds).
    handler: async (request) => sessions.login(request.body.username, request.body.password, request.ip),
  });

  app.route({
    ...authRoutes.token,
    handler: async (request) => sessions.refresh(request.body.refreshToken),
  });

  app.route({
    ...authRoutes.logout,
    handler: async (request) => {
      sessions.revokeSessions(request.user!.id);
      return { ok: true };
    },
  });
}
