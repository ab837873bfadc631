/** HTTP for the session calls: sign-in, refresh-token rotation, logout. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authRoutes } from '../../contract/auth.ts';
import { ErrorCode } from '../../contract/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Services } from '../../module.ts';

export function registerAuthRoutes(fastify: FastifyInstance, { sessions }: Pick<Services, 'sessions'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...authRoutes.login,
    handler: async (request, reply) => {
      const { username, password } = request.body;
      try {
        return await sessions.login(username, password, request.ip);
      } catch (err) {
        if (err instanceof AppError && err.code === ErrorCode.TOO_MANY_REQUESTS) {
          reply.header('Retry-After', String(err.params.seconds));
        }
        throw err;
      }
    },
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
