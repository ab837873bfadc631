/**
 * Serves the console: pre-compressed files chosen by Accept-Encoding, year-long caching for hashed
 * files, the SPA's index.html for console routes, and the first-boot redirect to the activation
 * wizard. Unknown /api paths keep the JSON error body of the errors plugin.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { consolePaths } from '../contract/console-paths.ts';
import type { Asset, AssetSource } from '../lib/assets.ts';
import { routeNotFound, sendError } from './errors.ts';

export interface StaticOptions {
  assets: AssetSource | null;
  /** True while the gateway has no licence: console routes then lead to the wizard. */
  guideRedirect: () => boolean;
  /**
   * Origins besides the console's own that pages may load images from: the configured map tile
   * server (server/modules/map/map-service.ts). Each is a checked `scheme://host[:port]`.
   */
  imageOrigins?: () => readonly string[];
}

/** Console pages served without a licence: the activation wizard and the licence upload. */
const licenceFreeRoutes = [consolePaths.guide, consolePaths.expiredLicense];

/** A Host header fit to be written into a policy: a name or address, with an optional port. */
const hostPattern = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * Arco injects inline styles; the console talks to its own origin over HTTP and websocket and
 * shows uploaded images and data: URIs. `'self'` covers the same-origin websocket in current
 * browsers; Safari before 16 (the build targets Safari 15, scripts/build.ts) needs the ws:/wss:
 * origin spelled out, which the Host header the page was asked for gives. Live video previews play
 * a MediaSource through a blob: URL (web/features/video/mse-player.ts), hence `media-src blob:`.
 */
function contentSecurityPolicy(host: string | undefined, imageOrigins: readonly string[]): string {
  const images = imageOrigins.map((o) => ` ${o}`).join('');
  const sockets = host && hostPattern.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${images}`,
    "font-src 'self' data:",
    "media-src 'self' blob:",
    `connect-src 'self'${sockets}`,
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

function htmlHeaders(host: string | undefined, imageOrigins: readonly string[]): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(host, imageOrigins),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'SAMEORIGIN',
    'referrer-policy': 'same-origin',
  };
}

/** Encodings the client accepts with a non-zero quality. */
function accepted(header: string | string[] | undefined): Set<string> {
  const set = new Set<string>();
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const part of value.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && (!q || Number(q.slice(2)) > 0)) set.add(name);
  }
  return set;
}

function isConsoleRoute(path: string): boolean {
  const last = path.slice(path.lastIndexOf('/') + 1);
  return !last.includes('.');
}

function decodePath(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null; // malformed %-escapes name no file
  }
}

function isApi(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

function send(request: FastifyRequest, reply: FastifyReply, asset: Asset, imageOrigins: () => readonly string[]): FastifyReply {
  reply.header('content-type', asset.contentType);
  reply.header('etag', asset.etag);
  reply.header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (asset.contentType.startsWith('text/html')) reply.headers(htmlHeaders(request.headers.host, imageOrigins()));
  else reply.header('x-content-type-options', 'nosniff');
  if (asset.br || asset.gzip) reply.header('vary', 'Accept-Encoding');

  const inm = request.headers['if-none-match'];
  if (inm && inm.split(',').some((t) => t.trim() === asset.etag)) return reply.code(304).send();

  const encodings = accepted(request.headers['accept-encoding']);
  if (asset.br && encodings.has('br')) return reply.header('content-encoding', 'br').send(asset.br);
  if (asset.gzip && (encodings.has('gzip') || encodings.has('x-gzip'))) {
    return reply.header('content-encoding', 'gzip').send(asset.gzip);
  }
  return reply.send(asset.body);
}

async function staticPlugin(app: FastifyInstance, opts: StaticOptions): Promise<void> {
  const { assets, guideRedirect } = opts;
  const imageOrigins = opts.imageOrigins ?? (() => []);
  if (!assets) return; // API-only: the errors plugin's not-found handler answers everything else

  app.get('/*', async (request, reply) => {
    const path = decodePath(request.url.split('?')[0] ?? '/');
    if (path === null) return sendError(request, reply, routeNotFound(request.method, request.url));
    if (isApi(path)) return sendError(request, reply, routeNotFound(request.method, path));

    if (!isConsoleRoute(path)) {
      const file = path.includes('..') ? undefined : assets.get(path);
      if (!file) return sendError(request, reply, routeNotFound(request.method, path));
      return send(request, reply, file, imageOrigins);
    }

    if (guideRedirect() && !licenceFreeRoutes.some((r) => path === r || path.startsWith(`${r}/`))) {
      return reply.redirect(consolePaths.guide, 302);
    }
    const index = assets.get('/index.html');
    if (!index) return sendError(request, reply, routeNotFound(request.method, path));
    return send(request, reply, index, imageOrigins);
  });
}

export default fp(staticPlugin, { name: 'static' });
