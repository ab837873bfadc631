/**
 * `/soft-gateway/node-red/{id}/http/…`: the flows' HTTP-in nodes of an instance whose administrator
 * exposed them (`exposeHttp`), without the console's sign-in, since HTTP-in endpoints are called by
 * devices and other systems. Otherwise 404, as for no instance at all.
 *
 * Never the editor or its admin API: the path is normalised (dot segments, percent-encoded or not)
 * and must stay under the instance's httpNodeRoot, and the proxy's secret header is never added
 * (a forged one is dropped), so Node-RED's adminAuth would refuse even a request that got there.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { nodeRedHttpPath } from '../../contract/node-red.ts';
import { notFound } from '../../lib/field-errors.ts';
import type { NodeRedService } from './node-red-service.ts';
import { passedHeaders, pipeUpstream } from './node-red-proxy.ts';

/** The request's path and query as sent upstream, or null when it leaves the HTTP-in root. */
function httpInPath(url: string, id: string): string | null {
  const parsed = new URL(url, 'http://gateway');
  const root = nodeRedHttpPath(id);
  const inside = parsed.pathname === root.slice(0, -1) || parsed.pathname.startsWith(root);
  return inside && !/%2e|%2f|%5c/i.test(parsed.pathname) ? `${parsed.pathname}${parsed.search}` : null;
}

export async function registerHttpInProxy(fastify: FastifyInstance, instances: NodeRedService): Promise<void> {
  await fastify.register(async (app) => {
    // Bodies are streamed to Node-RED as they come (its HTTP-in node parses them), never parsed here.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const handler = async (request: FastifyRequest<{ Params: { id: string } }>, reply: Parameters<typeof pipeUpstream>[1]): Promise<void> => {
      const { id } = request.params;
      const path = httpInPath(request.url, id);
      if (!path) throw notFound();
      const port = instances.httpInPort(id);
      pipeUpstream(request, reply, { port, path, headers: passedHeaders(request.headers) });
    };
    const config = { access: 'public' } as const;
    for (const url of ['/soft-gateway/node-red/:id/http', '/soft-gateway/node-red/:id/http/*']) {
      app.route({ method: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'], url, schema: { hide: true }, config, handler });
    }
  });
}
