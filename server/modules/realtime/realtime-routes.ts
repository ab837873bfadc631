/**
 * The live websocket /api/ws (server/contract/realtime.ts) in embedded mode; in proxy mode the
 * proxy forwards /api/ws to the upstream instead. Messages over 64 KB close the socket (1009).
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../../app.ts';
import { WS_MAX_MESSAGE_BYTES, WS_PATH, WsQuerySchema } from '../../contract/realtime.ts';
import { langFromAcceptLanguage } from '../../lib/messages.ts';
import { LiveData, type LiveTelemetry } from './live-data.ts';
import { LiveHub } from './live-hub.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Embedded mode only: the live websocket hub (socket and subscription counts for tests). */
    realtime?: LiveHub;
  }
}

export interface RealtimeModuleDeps extends Pick<ModuleDeps, 'core' | 'sessions' | 'license' | 'devices'> {
  telemetry: LiveTelemetry;
}

async function realtimeRoutes(fastify: FastifyInstance, deps: RealtimeModuleDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  await app.register(websocket, { options: { maxPayload: WS_MAX_MESSAGE_BYTES } });
  const hub = new LiveHub({
    bus: deps.core.bus,
    data: new LiveData(deps.telemetry, deps.devices.devices),
    verifyAccessToken: (token) => deps.sessions.verifyAccessToken(token),
    licenseStatus: () => deps.license.status(),
    log: app.log,
  });
  app.addHook('onClose', async () => hub.close());
  app.decorate('realtime', hub);

  app.route({
    method: 'GET',
    url: WS_PATH,
    websocket: true,
    // Not an HTTP operation: the protocol is described in the contract, not in OpenAPI.
    schema: { hide: true, querystring: WsQuerySchema },
    // The token comes with the upgrade (query) or the first message; the hub checks both.
    config: { access: 'public' },
    handler: (socket, request) => {
      const { token } = request.query as { token?: string };
      hub.open(socket, token, langFromAcceptLanguage(request.headers['accept-language']));
    },
  });
}

/** Not encapsulated, so the app itself carries `realtime`. */
export const realtimeModule = fp(realtimeRoutes, { name: 'realtime' });
