/**
 * Keeps the HTTP port answering when clients misbehave: timeouts for connections that send
 * nothing, a cap on connections per client address, and a cap on all HTTP connections derived
 * from the process's open-file limit, so that sockets opened and left silent cannot use up the
 * files the MQTT broker and the database need (every connection is a file descriptor).
 *
 * The timeouts are Node's (server.timeout, keepAliveTimeout, headersTimeout, requestTimeout),
 * set through Fastify's constructor (`httpServerOptions`); the caps and the lifting of the idle
 * timeout while a handler works are this plugin's.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { openFileLimit } from '../lib/open-file-limit.ts';
import { refusalWarning } from '../lib/throttled-warning.ts';

export interface HttpLimits {
  /**
   * A connection silent this long is closed while none of its requests is in a handler: before
   * its first request, mid-request (a stalled upload) and while a response is being written (a
   * client that stopped reading). A handler may wait longer (the device long poll waits up to
   * 300 s, a two-way command up to 60 s); the websocket library turns the timeout off for /api/ws.
   */
  idleTimeoutMs: number;
  /** Between two requests of a keep-alive connection. */
  keepAliveTimeoutMs: number;
  /** The request line and headers must arrive within this, however slowly the bytes trickle. */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this. */
  requestTimeoutMs: number;
  /** Connections one client address may hold at once; the next is closed as it arrives. */
  connectionsPerAddress: number;
  /** The soft open-file limit; null reads the process's own (none where it cannot be read). */
  openFileLimit: number | null;
  /** A request that took longer is logged as a warning (plugins/request-log.ts). */
  slowRequestMs: number;
}

declare module '../module.ts' {
  interface Tuning {
    /** Tests shorten the HTTP timeouts and lower the connection caps. */
    http?: Partial<HttpLimits>;
  }
}

/**
 * The numbers, chosen for a LAN gateway. Its HTTP clients are a few browsers (up to six
 * connections each, plus one websocket per console tab) and HTTP devices (a long poll and a call
 * at a time each); everything else on the port is a client to refuse.
 */
export const HTTP_LIMITS: HttpLimits = {
  // Long enough for any pause a working client makes; short enough that silent sockets do not pile up.
  idleTimeoutMs: 30_000,
  // Node's default is 5 s; Fastify's 72 s suits a load balancer in front, which a gateway lacks.
  keepAliveTimeoutMs: 10_000,
  // Headers are a few KB: this only stops a client sending them a byte at a time.
  headersTimeoutMs: 20_000,
  // The largest bodies are 5 MB uploads (server/contract/validation.ts): this allows ~350 kbit/s.
  requestTimeoutMs: 120_000,
  // A browser with several tabs uses about 15; a NAT with a few HTTP devices behind it fits too.
  connectionsPerAddress: 32,
  openFileLimit: null,
  slowRequestMs: 1_000,
};

/**
 * Files the process holds besides HTTP connections: about 30 when idle (database, its WAL and
 * shared memory twice over with the history worker, worker threads' event loops, listening
 * sockets, stdio), plus uploads, log writes and outgoing connections.
 */
const RESERVED_FILES = 64;
/**
 * HTTP's share of the remaining files; the rest is for MQTT devices, the gateway's main clients.
 * With the common soft limit of 1,024 files this allows 240 HTTP connections and leaves 720.
 */
const HTTP_SHARE_OF_FILES = 0.25;
/** However low the open-file limit, the console stays reachable. */
const MIN_HTTP_CONNECTIONS = 16;
/** How often Node checks the headers and request timeouts (its default, 30 s, would add up to that much). */
const TIMEOUT_CHECK_INTERVAL_MS = 5_000;

/** The limits in force: the defaults with a test's overrides. */
export function httpLimits(overrides: Partial<HttpLimits> = {}): HttpLimits {
  return { ...HTTP_LIMITS, ...overrides };
}

/** Connections HTTP may hold at once for an open-file limit; null (no cap) when the limit is unknown. */
export function httpConnectionBudget(fileLimit: number | null): number | null {
  if (fileLimit === null) return null;
  return Math.max(MIN_HTTP_CONNECTIONS, Math.floor((fileLimit - RESERVED_FILES) * HTTP_SHARE_OF_FILES));
}

/** Fastify's constructor options that carry the timeouts. */
export function httpServerOptions(limits: HttpLimits): Pick<FastifyServerOptions, 'connectionTimeout' | 'keepAliveTimeout' | 'requestTimeout'> & {
  http: { headersTimeout: number; connectionsCheckingInterval: number };
} {
  return {
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS },
  };
}

/** A socket of a real connection (app.inject's requests have a stand-in without timers). */
function timedSocket(socket: unknown): Socket | null {
  return socket && typeof (socket as Socket).setTimeout === 'function' ? (socket as Socket) : null;
}

async function httpGuardPlugin(app: FastifyInstance, limits: HttpLimits): Promise<void> {
  const server = app.server;

  const budget = httpConnectionBudget(limits.openFileLimit ?? openFileLimit());
  if (budget !== null) {
    // Node closes connections beyond this as they are accepted, before any parsing.
    server.maxConnections = budget;
    const warnFull = refusalWarning(app.log, 'HTTP connection refused: the connections allowed by the open-file limit are in use');
    server.on('drop', (data?: { remoteAddress?: string }) => warnFull({ remoteAddress: data?.remoteAddress, maxConnections: budget }));
  }

  const perAddress = new Map<string, number>();
  const warnAddress = refusalWarning(app.log, 'HTTP connection refused: too many connections from one address');
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return; // already gone
    const held = perAddress.get(address) ?? 0;
    if (held >= limits.connectionsPerAddress) {
      warnAddress({ remoteAddress: address, connectionsPerAddress: limits.connectionsPerAddress });
      socket.destroy();
      return;
    }
    perAddress.set(address, held + 1);
    socket.once('close', () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });

  // The idle timeout guards the client's side of a request; while a handler works, the wait is
  // the server's (a long poll, a command awaiting its answer). It applies again once the response
  // is being written, and Node's keep-alive timeout takes over when that is done.
  app.addHook('preHandler', (request, _reply, done) => {
    timedSocket(request.raw.socket)?.setTimeout(0);
    done();
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    timedSocket(request.raw.socket)?.setTimeout(limits.idleTimeoutMs);
    done(null, payload);
  });

  // A websocket upgrade answered over HTTP (no such path, refused access) holds a socket Node has
  // handed over already and nothing else would close: without this each one stays open for good.
  // (A request that asked for an upgrade Node did not grant loses only its keep-alive.)
  app.addHook('onResponse', (request, _reply, done) => {
    const socket = request.headers.upgrade === undefined ? null : timedSocket(request.raw.socket);
    if (socket && !socket.destroyed) {
      // The answer is flushed first; a client that does not read it meets the idle timeout.
      socket.once('timeout', () => socket.destroy());
      socket.end(() => socket.destroy());
    }
    done();
  });
}

export default fp(httpGuardPlugin, { name: 'http-guard' });
