/** HTTP and the live websocket of video channels (server/contract/video.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { WebSocket } from 'ws';
import { roleHolds } from '../../contract/permissions.ts';
import { WsQuerySchema } from '../../contract/realtime.ts';
import { VIDEO_CLOSE_AUTH, VIDEO_CLOSE_NOT_FOUND, VIDEO_LIVE_PATH, videoRoutes } from '../../contract/video.ts';
import { fieldErrorFormatter, type FieldKeys } from '../../lib/field-errors.ts';
import { bearerToken } from '../../plugins/access.ts';
import type { ModuleScope } from '../../module.ts';
import type { VideoLiveAuth } from './video-live-auth.ts';
import type { VideoService } from './video-service.ts';

export const videoFieldKeys: FieldKeys = {
  name: 'error.video.name',
  host: 'error.video.host',
  rtspPort: 'error.video.rtspPort',
  channelNo: 'error.video.channelNo',
  nationalCode: 'error.video.nationalCode',
  port: 'error.video.onvifPort',
};

export function registerVideoRoutes(fastify: FastifyInstance, { video, videoLiveAuth }: ModuleScope<never, { video: VideoService; videoLiveAuth: VideoLiveAuth }>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const schemaErrorFormatter = fieldErrorFormatter(videoFieldKeys);
  app.route({ ...videoRoutes.list, schemaErrorFormatter, handler: async (request) => video.page(request.query, request.deviceScope) });
  app.route({ ...videoRoutes.capabilities, handler: async () => video.capabilities() });
  app.route({ ...videoRoutes.get, handler: async (request) => video.get(request.params.id, request.deviceScope) });
  app.route({ ...videoRoutes.create, schemaErrorFormatter, handler: async (request) => video.create(request.body) });
  app.route({ ...videoRoutes.update, schemaErrorFormatter, handler: async (request) => video.update(request.body) });
  app.route({ ...videoRoutes.delete, handler: async (request) => video.delete(request.body.ids) });
  app.route({ ...videoRoutes.sync, schemaErrorFormatter, handler: async (request, reply) => reply.code(202).send(await video.sync(request.body)) });
  app.route({ ...videoRoutes.probe, handler: async (request) => video.probe(request.params.id, request.deviceScope) });
  app.route({
    ...videoRoutes.thumbnail,
    handler: async (request, reply) => {
      const jpeg = await video.thumbnail(request.params.id, request.deviceScope);
      return reply.type('image/jpeg').header('cache-control', 'private, max-age=60').send(jpeg);
    },
  });

  app.route({
    method: 'GET',
    url: VIDEO_LIVE_PATH,
    websocket: true,
    // Not an HTTP operation: described in server/contract/video.ts, not in OpenAPI.
    schema: { hide: true, querystring: WsQuerySchema },
    // The token comes with the upgrade (query or bearer header), checked here as /api/ws does.
    config: { access: 'public' },
    handler: (socket: WebSocket, request) => {
      const { token } = request.query as { token?: string };
      const { id } = request.params as { id: string };
      const user = videoLiveAuth.authenticate(token ?? bearerToken(request) ?? '');
      if (typeof user === 'string' || !roleHolds(user.role, 'video:view')) return socket.close(VIDEO_CLOSE_AUTH, typeof user === 'string' ? user : 'error.permissionDenied');
      let url: string;
      try {
        url = video.streamUrlOf(id, videoLiveAuth.scopeOf(user));
      } catch {
        return socket.close(VIDEO_CLOSE_NOT_FOUND, 'error.notFound');
      }
      videoLiveAuth.track(user.id, socket);
      video.watch(id, url, socket);
    },
  });
}
