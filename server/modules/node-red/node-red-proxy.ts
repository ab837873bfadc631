/**
 * `/soft-gateway/node-red/{id}/editor/…`: the one way to an instance's editor, its admin API and
 * its `/comms` websocket (shared/DESIGN.md §4 "Soft gateway"). A request must bring the instance's
 * session cookie, or a ticket in the query that becomes one (set, then redirected to the URL
 * without it). The proxy adds the instance's secret header, which is all Node-RED's adminAuth
 * admits; the path is passed on unchanged (the runtime's httpAdminRoot is this same path).
 *
 * Bodies are streamed, never parsed: this route's context has a catch-all content-type parser
 * that leaves the request stream alone. A 2xx answer to POST …/flows is a deploy: a snapshot follows.
 *
 * The websocket: the gateway's websocket plugin (server/modules/realtime) routes every upgrade
 * through Fastify, so the upgrade of `…/comms` reaches this handler too; it is tunnelled to the
 * runtime as raw bytes after the runtime answered 101.
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../contract/errors.ts';
import { nodeRedEditorPath } from '../../contract/node-red.ts';
import { NODE_RED_TOKEN_HEADER } from '../../cli/node-red-runtime.ts';
import { AppError } from '../../lib/app-error.ts';
import type { NodeRedService } from './node-red-service.ts';
import type { NodeRedSnapshots } from './node-red-snapshots.ts';
import { EDITOR_COOKIE, EDITOR_SESSION_TTL_MS, type NodeRedTickets } from './node-red-tickets.ts';

export interface EditorProxyDeps {
  instances: NodeRedService;
  snapshots: NodeRedSnapshots;
  tickets: NodeRedTickets;
}

/** Headers that describe the client's hop or its sign-in, not the request: never passed on. */
const DROPPED = new Set(['host', 'cookie', 'authorization', NODE_RED_TOKEN_HEADER, 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

function upstreamHeaders(headers: IncomingHttpHeaders, token: string): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [key, value] of Object.entries(headers)) if (!DROPPED.has(key)) out[key] = value;
  out[NODE_RED_TOKEN_HEADER] = token;
  out.host = '127.0.0.1';
  return out;
}

const refused = (): AppError => new AppError(ErrorCode.AUTHENTICATION, 'error.nodeRed.ticketInvalid', {}, { status: 401 });

/** Redeems a ticket in the query: sets the cookie and redirects to the URL without the ticket. */
function redeemTicket(request: FastifyRequest, reply: FastifyReply, id: string, tickets: NodeRedTickets): FastifyReply {
  const url = new URL(request.url, 'http://gateway');
  const session = tickets.redeem(url.searchParams.get('ticket') ?? '', id);
  if (!session) throw refused();
  url.searchParams.delete('ticket');
  const path = nodeRedEditorPath(id);
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${EDITOR_COOKIE}=${session}; Path=${path}; HttpOnly; SameSite=Strict; Max-Age=${EDITOR_SESSION_TTL_MS / 1000}${secure}`);
  reply.header('cache-control', 'no-store');
  const target = url.pathname.startsWith(path) ? url.pathname : path;
  return reply.redirect(`${target}${url.search}`, 302);
}

function tunnelWebsocket(request: FastifyRequest, reply: FastifyReply, port: number, token: string): void {
  reply.hijack();
  const client = request.raw.socket as Duplex & { setTimeout?(ms: number): void };
  const headers = { ...upstreamHeaders(request.headers, token), connection: 'Upgrade', upgrade: 'websocket' };
  const outbound = httpRequest({ host: '127.0.0.1', port, path: request.url, method: 'GET', headers });
  outbound.on('upgrade', (res: IncomingMessage, upstream: Duplex, head: Buffer) => {
    const lines = [`HTTP/1.1 101 Switching Protocols`];
    for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
    client.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length) client.write(head);
    // The editor's socket stays open for hours; the HTTP idle timeout is for requests.
    client.setTimeout?.(0);
    upstream.pipe(client).pipe(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  outbound.on('response', (res) => {
    client.end(`HTTP/1.1 ${res.statusCode ?? 502} Refused\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    res.resume();
  });
  outbound.on('error', () => client.destroy());
  outbound.end();
}

function forward(request: FastifyRequest, reply: FastifyReply, port: number, token: string, onDeployed: () => void): void {
  reply.hijack();
  const deploy = request.method === 'POST' && /\/editor\/flows(\?|$)/.test(request.url);
  const outbound = httpRequest({ host: '127.0.0.1', port, path: request.url, method: request.method, headers: upstreamHeaders(request.headers, token) });
  outbound.on('response', (res) => {
    reply.raw.writeHead(res.statusCode ?? 502, res.headers);
    res.pipe(reply.raw);
    if (deploy && (res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300) res.on('end', onDeployed);
  });
  outbound.on('error', () => {
    if (!reply.raw.headersSent) reply.raw.writeHead(502, { 'content-type': 'text/plain' });
    reply.raw.end('Node-RED did not answer');
  });
  request.raw.pipe(outbound);
}

export async function registerEditorProxy(fastify: FastifyInstance, deps: EditorProxyDeps): Promise<void> {
  await fastify.register(async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const handler = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply): Promise<FastifyReply | void> => {
      const { id } = request.params;
      if (new URL(request.url, 'http://gateway').searchParams.has('ticket')) return redeemTicket(request, reply, id, deps.tickets);
      if (!deps.tickets.admits(cookieValue(request.headers.cookie, EDITOR_COOKIE), id)) throw refused();
      const upstream = deps.instances.runtime().upstream(id);
      if (!upstream) throw new AppError(ErrorCode.GENERAL, 'error.nodeRed.notRunning', {}, { status: 503, expected: true });
      if (request.headers.upgrade?.toLowerCase() === 'websocket') return tunnelWebsocket(request, reply, upstream.port, upstream.token);
      forward(request, reply, upstream.port, upstream.token, () => {
        try {
          deps.snapshots.take(id, '', 'DEPLOY');
        } catch (err) {
          request.log.warn({ err, instance: id }, 'snapshot after deploy failed');
        }
      });
    };
    const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;
    const config = { access: 'public' } as const;
    for (const url of ['/soft-gateway/node-red/:id/editor', '/soft-gateway/node-red/:id/editor/*']) {
      app.route({ method: [...methods], url, schema: { hide: true }, config, handler });
    }
  });
}
