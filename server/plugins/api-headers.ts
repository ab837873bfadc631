/**
 * Headers every /api answer carries. Answers hold tokens (sign-in, device credentials), personal
 * data and live state, so no cache (the browser's, a proxy's) may keep them: `no-store`, unless the
 * route chose its own caching (uploaded files are stored under content-addressed names and cached
 * for good, server/modules/oss/oss-routes.ts). `nosniff` keeps a browser from running an answer as
 * something other than its declared type. The console's own files get their headers from
 * server/plugins/static.ts.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

function isApiUrl(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

async function apiHeadersPlugin(app: FastifyInstance): Promise<void> {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isApiUrl(request.url)) {
      reply.header('x-content-type-options', 'nosniff');
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
}

export default fp(apiHeadersPlugin, { name: 'api-headers' });
