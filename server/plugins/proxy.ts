/**
 * Proxy mode (`--upstream URL`, README, Configuration): every /api path and the /api/ws websocket go
 * to the upstream edge core unchanged (method, path, query, body, headers), so the console's
 * guards act on the upstream's own answers. GET /api/health is registered before this plugin and,
 * being the more specific route, stays local.
 */
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '../contract/errors.ts';
import { AppError } from '../lib/app-error.ts';

export interface ProxyOptions {
  upstream: string;
}

export default async function proxyPlugin(app: FastifyInstance, opts: ProxyOptions): Promise<void> {
  const upstream = opts.upstream.replace(/\/+$/, '');
  // Loaded on demand: the proxy pulls in undici (the largest dependency, ~15% of start-up CPU),
  // which embedded mode never uses. esbuild keeps a bundled dynamic import lazy.
  const { default: httpProxy } = await import('@fastify/http-proxy');
  await app.register(httpProxy, {
    upstream,
    prefix: '/api',
    rewritePrefix: '/api',
    websocket: true,
    // Two info lines per proxied request otherwise; requests are logged once, at debug (plugins/request-log.ts).
    disableRequestLogging: true,
    replyOptions: {
      // Connection refused, reset or timed out: one error body instead of the library's.
      onError: (reply, { error }) => {
        reply.log.warn({ err: error.message, upstream }, 'upstream unavailable');
        reply.send(new AppError(ErrorCode.GENERAL, 'error.proxy.upstreamUnavailable', {}, { status: 502 }));
      },
    },
  });
}
