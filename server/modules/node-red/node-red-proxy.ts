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
 * The websocket: the gateway's websocket plugin (registered once on the root, server/app.ts) takes
 * every upgrade and hands it to a route's `wsHandler`, closing it on routes without one. So the
 * editor's GET route has one: the session is checked before the upgrade (preHandler), then each
 * message is relayed to a websocket of our own to the runtime carrying the instance's header.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import WebSocket from 'ws';
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

/** The client's headers minus its hop and sign-in (and any proxy token it forged), for 127.0.0.1. */
export function passedHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [key, value] of Object.entries(headers)) if (!DROPPED.has(key)) out[key] = value;
  out.host = '127.0.0.1';
  return out;
}

function upstreamHeaders(headers: IncomingHttpHeaders, token: string): IncomingHttpHeaders {
  return { ...passedHeaders(headers), [NODE_RED_TOKEN_HEADER]: token };
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

/** Close codes a peer may send; 1005/1006/1015 only describe a close, and 1004 is reserved. */
function sendableClose(code: number): number | undefined {
  return code >= 1000 && code < 5000 && ![1004, 1005, 1006, 1015].includes(code) ? code : undefined;
}

/** Relays the browser's editor socket to the runtime's `/comms`, message by message, both ways. */
function bridgeWebsocket(client: WebSocket, request: FastifyRequest, port: number, token: string): void {
  const headers = Object.fromEntries(Object.entries(upstreamHeaders(request.headers, token)).filter(([key]) => !key.startsWith('sec-websocket-')));
  const protocols = (request.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim()).filter(Boolean);
  const upstream = new WebSocket(`ws://127.0.0.1:${port}${request.url}`, protocols, { headers: headers as Record<string, string> });
  const early: [WebSocket.RawData, boolean][] = [];
  client.on('message', (data, isBinary) => {
    if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
    else early.push([data, isBinary]);
  });
  upstream.on('open', () => {
    for (const [data, isBinary] of early.splice(0)) upstream.send(data, { binary: isBinary });
  });
  upstream.on('message', (data, isBinary) => client.send(data, { binary: isBinary }));
  upstream.on('close', (code, reason) => client.close(sendableClose(code), reason));
  upstream.on('error', () => client.terminate());
  client.on('close', () => upstream.terminate());
  client.on('error', () => upstream.terminate());
}

/** Streams the request to 127.0.0.1:port and the answer back; `onDone` hears the upstream's status once its body ended. */
export function pipeUpstream(request: FastifyRequest, reply: FastifyReply, target: { port: number; path: string; headers: IncomingHttpHeaders }, onDone?: (status: number) => void): void {
  reply.hijack();
  const outbound = httpRequest({ host: '127.0.0.1', port: target.port, path: target.path, method: request.method, headers: target.headers });
  outbound.on('response', (res) => {
    reply.raw.writeHead(res.statusCode ?? 502, res.headers);
    res.pipe(reply.raw);
    if (onDone) res.on('end', () => onDone(res.statusCode ?? 0));
  });
  outbound.on('error', () => {
    if (!reply.raw.headersSent) reply.raw.writeHead(502, { 'content-type': 'text/plain' });
    reply.raw.end('Node-RED did not answer');
  });
  request.raw.pipe(outbound);
}

function forward(request: FastifyRequest, reply: FastifyReply, port: number, token: string, onDeployed: () => void): void {
  const deploy = request.method === 'POST' && /\/editor\/flows(\?|$)/.test(request.url);
  pipeUpstream(request, reply, { port, path: request.url, headers: upstreamHeaders(request.headers, token) }, (status) => {
    if (deploy && status >= 200 && status < 300) onDeployed();
  });
}

export async function registerEditorProxy(fastify: FastifyInstance, deps: EditorProxyDeps): Promise<void> {
  await fastify.register(async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));
    type EditorRequest = FastifyRequest<{ Params: { id: string } }>;
    /** The running instance a request with a valid session reaches; throws otherwise. */
    const upstreamFor = (request: EditorRequest): { port: number; token: string } => {
      const { id } = request.params;
      if (!deps.tickets.admits(cookieValue(request.headers.cookie, EDITOR_COOKIE), id)) throw refused();
      const upstream = deps.instances.runtime().upstream(id);
      if (!upstream) throw new AppError(ErrorCode.GENERAL, 'error.nodeRed.notRunning', {}, { status: 503, expected: true });
      return upstream;
    };
    const handler = async (request: EditorRequest, reply: FastifyReply): Promise<FastifyReply | void> => {
      const { id } = request.params;
      if (new URL(request.url, 'http://gateway').searchParams.has('ticket')) return redeemTicket(request, reply, id, deps.tickets);
      const upstream = upstreamFor(request);
      forward(request, reply, upstream.port, upstream.token, () => {
        try {
          deps.snapshots.take(id, '', 'DEPLOY');
        } catch (err) {
          request.log.warn({ err, instance: id }, 'snapshot after deploy failed');
        }
      });
    };
    // An upgrade is refused with the error body before the plugin answers 101.
    const preHandler = async (request: EditorRequest): Promise<void> => {
      if (request.ws) upstreamFor(request);
    };
    const wsHandler = (socket: WebSocket, request: EditorRequest): void => {
      const upstream = upstreamFor(request);
      bridgeWebsocket(socket, request, upstream.port, upstream.token);
    };
    const config = { access: 'public' } as const;
    for (const url of ['/soft-gateway/node-red/:id/editor', '/soft-gateway/node-red/:id/editor/*']) {
      // The plugin allows a websocket handler on GET only.
      app.route({ method: ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'], url, schema: { hide: true }, config, handler });
      app.route({ method: 'GET', url, schema: { hide: true }, config, handler, preHandler, wsHandler });
    }
  });
}
