/** HTTP of the cloud link: connection test, edge state (and its secret), cloud events. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { cloudLinkRoutes } from '../../contract/cloud-link.ts';
import { ErrorCode } from '../../contract/errors.ts';
import { roleHolds } from '../../contract/permissions.ts';
import { AppError } from '../../lib/app-error.ts';
import { langFromAcceptLanguage } from '../../lib/messages.ts';
import type { Services } from '../../module.ts';

export function registerCloudLinkRoutes(fastify: FastifyInstance, { cloudLink }: Pick<Services, 'cloudLink'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const lang = (request: { headers: Record<string, string | string[] | undefined> }) => langFromAcceptLanguage(request.headers['accept-language'] as string | undefined);
  app.route({ ...cloudLinkRoutes.test, handler: async (request) => cloudLink.test(request.body, lang(request)) });
  app.route({ ...cloudLinkRoutes.state, handler: async (request) => cloudLink.state(lang(request)) });
  app.route({
    ...cloudLinkRoutes.secret,
    handler: async (request) => {
      // The access hook already holds the route to its permission; checked again here because a
      // secret in clear must not depend on one hook, and from the same table, not a second list.
      if (!request.user || !roleHolds(request.user.role, cloudLinkRoutes.secret.config.permission)) throw new AppError(ErrorCode.PERMISSION_DENIED, 'error.permissionDenied', {}, { status: 403 });
      return { edgeSecret: cloudLink.secret() };
    },
  });
  app.route({ ...cloudLinkRoutes.events, handler: async (request) => cloudLink.eventPage(request.query, lang(request)) });
  app.route({ ...cloudLinkRoutes.retry, handler: async (request) => cloudLink.retry(request.params.id) });
}
