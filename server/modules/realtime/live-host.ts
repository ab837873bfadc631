/**
 * The live host: every socket of /api/ws and what keeps them honest. Commands are served by the
 * modules that own their data (server/live.ts, each module's `live` entry); the host only admits
 * sockets, hands each session the registry and the user's device reads, and closes sockets: a
 * ping every KEEPALIVE_MS drops sockets that stopped answering (with their subscriptions), a
 * socket closes the moment its token expires (unless an authCmd brought a fresher one), the token
 * is checked again with every ping (licence), and a logout or password change closes the user's
 * sockets at once. A change of the user's memberships, or a move in the organization tree, closes
 * the sockets whose scope it changed (the client subscribes again under the new one); a device
 * moved to another organization is dropped from every answer at once (update-scope.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { LicenseStatus } from '../../contract/license.ts';
import type { ErrorKey } from '../../contract/errors.ts';
import { WS_AUTH_TIMEOUT_MS, WS_MAX_GUEST_SOCKETS_PER_ADDRESS, WS_MAX_SOCKETS_PER_USER, WS_POLICY_VIOLATION } from '../../contract/realtime.ts';
import type { AuthUser } from '../../core.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import type { DeviceScope, ScopedDevices } from '../../lib/device-scope.ts';
import type { LiveCommands } from '../../live.ts';
import { authenticateSocket } from '../../lib/socket-auth.ts';
import { closeReasonOf, WsSession, type SessionClient, type SessionHost } from './ws-session.ts';

const KEEPALIVE_MS = 30_000;
/** setTimeout's longest delay; a later expiry is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface LiveHostDeps {
  bus: EventBus;
  /** Every module's live command types (server/module.ts collects them). */
  commands: LiveCommands;
  verifyAccessToken(token: string): AuthUser | null | 'expired';
  /** Which devices the user may see (server/lib/device-scope.ts). */
  deviceScopeOf(user: AuthUser): DeviceScope;
  /** The device reads of a scope (DeviceService.within). */
  devicesWithin(scope: DeviceScope): ScopedDevices;
  /** When a valid token expires (ms since the epoch), or null. */
  accessTokenExpiresAt(token: string): number | null;
  licenseStatus(): LicenseStatus;
  log: FastifyBaseLogger;
}

export class LiveHost implements SessionHost {
  readonly commands: LiveCommands;
  readonly log: FastifyBaseLogger;
  private readonly sessions = new Set<WsSession>();
  private readonly byUser = new Map<string, Set<WsSession>>();
  /** Guest sockets (share links) per client address: a token's holder cannot open sockets without end. */
  private readonly guestsByAddress = new Map<string, Set<WsSession>>();
  private readonly tokens = new Map<WsSession, string>();
  private readonly expiryTimers = new Map<WsSession, NodeJS.Timeout>();
  private readonly offBus: () => void;
  private readonly keepalive: NodeJS.Timeout;

  constructor(private readonly deps: LiveHostDeps) {
    this.commands = deps.commands;
    this.log = deps.log;
    const offs = [
      deps.bus.on('user.sessionsRevoked', ({ userId }) => {
        for (const session of [...(this.byUser.get(userId) ?? [])]) session.close(WS_POLICY_VIOLATION, 'session revoked');
      }),
      // A scope read once at the socket's start would outlive the memberships it was read from.
      deps.bus.on('user.membershipChanged', ({ userId }) => {
        for (const session of [...(this.byUser.get(userId) ?? [])]) session.rescope();
      }),
      deps.bus.on('organization.moved', () => {
        for (const session of [...this.sessions]) session.rescope();
      }),
    ];
    this.offBus = () => offs.forEach((off) => off());
    this.keepalive = setInterval(() => this.sweep(), KEEPALIVE_MS).unref();
  }

  /** Takes a new socket: authenticated by the URL's token, or by an authCmd (or guest commands) within the time limit. */
  open(socket: WebSocket, token: string | undefined, client: SessionClient): void {
    const session = new WsSession(socket, this, client);
    this.sessions.add(session);
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
      try {
        session.handle(text);
      } catch (err) {
        this.log.error({ err }, 'websocket message failed');
      }
    });
    socket.on('pong', () => {
      session.alive = true;
    });
    socket.on('close', () => session.dispose());
    socket.on('error', (err) => this.log.warn({ err: err.message }, 'websocket error'));
    if (token !== undefined) {
      session.authenticate(token);
      return;
    }
    setTimeout(() => {
      if (!session.user && !session.guest) session.close(WS_POLICY_VIOLATION, 'authentication timeout');
    }, WS_AUTH_TIMEOUT_MS).unref();
  }

  authenticate(token: string): AuthUser | ErrorKey {
    return authenticateSocket(this.deps, token);
  }

  /** The user's scope and the device reads within it. */
  devicesFor(user: AuthUser): ScopedDevices {
    return this.deps.devicesWithin(this.deps.deviceScopeOf(user));
  }

  admit(session: WsSession): boolean {
    const user = session.user!;
    const mine = this.byUser.get(user.id) ?? new Set<WsSession>();
    if (mine.size >= WS_MAX_SOCKETS_PER_USER) return false;
    mine.add(session);
    this.byUser.set(user.id, mine);
    return true;
  }

  admitGuest(session: WsSession): boolean {
    const theirs = this.guestsByAddress.get(session.ip) ?? new Set<WsSession>();
    if (theirs.size >= WS_MAX_GUEST_SOCKETS_PER_ADDRESS) return false;
    theirs.add(session);
    this.guestsByAddress.set(session.ip, theirs);
    return true;
  }

  /** Remembers the token a session authenticated with, to check it again later. */
  authenticated(session: WsSession, token: string): void {
    this.tokens.set(session, token);
    this.closeAtExpiry(session, token);
  }

  remove(session: WsSession): void {
    this.sessions.delete(session);
    this.tokens.delete(session);
    clearTimeout(this.expiryTimers.get(session));
    this.expiryTimers.delete(session);
    const guests = this.guestsByAddress.get(session.ip);
    if (guests?.delete(session) && guests.size === 0) this.guestsByAddress.delete(session.ip);
    if (!session.user) return;
    const mine = this.byUser.get(session.user.id);
    mine?.delete(session);
    if (mine?.size === 0) this.byUser.delete(session.user.id);
  }

  /** Open sockets, subscriptions and devices followed: what a leak would make grow. */
  stats(): { sockets: number; subscriptions: number; devices: number } {
    let subscriptions = 0;
    const devices = new Set<string>();
    for (const s of this.sessions) {
      subscriptions += s.subscriptionCount;
      for (const id of s.followedDevices()) devices.add(id);
    }
    return { sockets: this.sessions.size, subscriptions, devices: devices.size };
  }

  close(): void {
    clearInterval(this.keepalive);
    this.offBus();
    for (const session of [...this.sessions]) session.close(1001, 'server shutting down');
  }

  /** Closes `session` when `token` expires; a fresher token the session authenticates with replaces the timer. */
  private closeAtExpiry(session: WsSession, token: string): void {
    clearTimeout(this.expiryTimers.get(session));
    this.expiryTimers.delete(session);
    const expiresAt = this.deps.accessTokenExpiresAt(token);
    if (expiresAt === null) {
      // Expired between the check that admitted it and this one (the two read the clock apart and
      // may straddle the second of `exp`): no timer would ever close the socket, so close it now.
      this.stillValid(session, token);
      return;
    }
    const timer = setTimeout(() => {
      this.expiryTimers.delete(session);
      // Still valid when the timer fired a little early, or when the expiry lay beyond the longest delay.
      if (this.stillValid(session, token)) this.closeAtExpiry(session, token);
    }, Math.min(Math.max(expiresAt - Date.now(), 0), MAX_TIMER_MS));
    timer.unref();
    this.expiryTimers.set(session, timer);
  }

  /** Checks `token` again; closes `session` with 1008 when it no longer holds. */
  private stillValid(session: WsSession, token: string): boolean {
    const refused = this.authenticate(token);
    if (typeof refused !== 'string') return true;
    session.close(WS_POLICY_VIOLATION, closeReasonOf(refused));
    return false;
  }

  private sweep(): void {
    for (const session of [...this.sessions]) {
      if (!session.alive) {
        session.socket.terminate();
        session.dispose();
        continue;
      }
      session.alive = false;
      session.socket.ping();
      const token = this.tokens.get(session);
      if (token) this.stillValid(session, token);
    }
  }
}
