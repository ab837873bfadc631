/**
 * Proxy mode (`--upstream URL`, README, Configuration): every /api path and the /api/ws websocket go
 * to the upstream edge core unchanged (method, path, query, body, headers), so the console's
 * guards act on the upstream's own answers. GET /api/health is registered before this plugin and,
 * being the more specific route, stays local.
 *
 * The one header added is X-Forwarded-For: without it the upstream would see every user as this
 * proxy's address, and one client's failed sign-ins would lock out everyone behind it. The
 * upstream believes it only when it names this proxy with `--trusted-proxy`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyHttpProxyOptions } from '@fastify/http-proxy';
import { ErrorCode } from '../contract/errors.ts';
import { AppError } from '../lib/app-error.ts';

export interface ProxyOptions {
  upstream: string;
}

/**
 * The X-Forwarded-For to send: what the client sent, with the address this proxy received the
 * request from appended (the socket's, never a header's). An upstream trusting this proxy takes
 * the last entry, which the client cannot choose; entries the client forged stay to its left.
 */
function forwardedFor(request: { socket: { remoteAddress?: string }; headers: IncomingHttpHeaders }): string {
  const peer = request.socket.remoteAddress ?? '';
  const sent = request.headers['x-forwarded-for'];
  const prior = (Array.isArray(sent) ? sent.join(', ') : sent)?.trim();
  return prior ? `${prior}, ${peer}` : peer;
}

/**
 * Headers of the upstream websocket: the library's default passes only the cookie on; kept, plus
 * the client's address. (`rewriteRequestHeaders` is in the library's README but not its types.)
 */
const wsClientOptions = {
  rewriteRequestHeaders: (headers: IncomingHttpHeaders, request: FastifyRequest): IncomingHttpHeaders => ({
    ...headers,
    ...(request.headers.cookie ? { cookie: request.headers.cookie } : {}),
    'x-forwarded-for': forwardedFor(request),
  }),
} as NonNullable<FastifyHttpProxyOptions['wsClientOptions']>;

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
    wsClientOptions,
    // Two info lines per proxied request otherwise; requests are logged once, at debug (plugins/request-log.ts).
    disableRequestLogging: true,
    replyOptions: {
      rewriteRequestHeaders: (request, headers) => ({ ...headers, 'x-forwarded-for': forwardedFor(request) }),
      // Connection refused, reset or timed out: one error body instead of the library's.
      onError: (reply, { error }) => {
        reply.log.warn({ err: error.message, upstream }, 'upstream unavailable');
        reply.send(new AppError(ErrorCode.GENERAL, 'error.proxy.upstreamUnavailable', {}, { status: 502 }));
      },
    },
  });
}
