/**
 * The live websocket /api/ws (server/contract/realtime.ts) in embedded mode; in proxy mode the
 * proxy forwards /api/ws to the upstream instead. Messages over 64 KB close the socket (1009): the
 * websocket plugin is registered once on the root (server/app.ts) with that limit.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { WS_LEGACY_PATH, WS_PATH, WsQuerySchema } from '../../contract/realtime.ts';
import { langFromAcceptLanguage } from '../../lib/messages.ts';
import { bearerToken } from '../../plugins/access.ts';
import type { Services } from '../../module.ts';

export function registerRealtimeRoutes(fastify: FastifyInstance, { realtime: host }: Pick<Services, 'realtime'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  // The legacy path (older ThingsBoard clients, the tb SDKs' examples) speaks the same protocol.
  for (const url of [WS_PATH, WS_LEGACY_PATH]) {
    app.route({
      method: 'GET',
      url,
      websocket: true,
      // Not an HTTP operation: the protocol is described in the contract, not in OpenAPI.
      schema: { hide: true, querystring: WsQuerySchema },
      // The token comes with the upgrade (query) or the first message; the host checks both.
      config: { access: 'public' },
      handler: (socket, request) => {
        // Clients that can set headers on the upgrade may bring the token as REST calls do.
        const { token } = request.query as { token?: string };
        host.open(socket, token ?? bearerToken(request) ?? undefined, { lang: langFromAcceptLanguage(request.headers['accept-language']), ip: request.ip });
      },
    });
  }
}
