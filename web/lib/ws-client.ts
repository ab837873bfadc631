/**
 * The console's live connection to `/api/ws` (server/contract/realtime.ts): one socket per tab
 * shared by every live view.
 *
 * - opens when the first subscriber arrives and authenticates on open with an authCmd;
 * - sends at most WS_MAX_CMDS_PER_MESSAGE commands per message (queued and split);
 * - closes WS_IDLE_CLOSE_MS (90 s) after the last subscriber leaves, so moving between pages does
 *   not reconnect;
 * - after a close while still wanted, reconnects after WS_RECONNECT_DELAY_MS (2 s) and subscribes
 *   every active subscription again under its cmdId;
 * - a 1008 close (token refused, or expired: the server closes the socket the moment its token
 *   expires) refreshes the session through the HTTP client's refresh first, then reconnects;
 *   when that fails it stops (the next HTTP call sends the user to Login);
 * - a token refreshed by the HTTP client is handed to the open socket, which the server then
 *   keeps open until that token expires;
 * - socket errors are only logged, never shown.
 *
 * @example
 * ```ts
 * import { subscribe } from '../../lib/ws-client.ts';
 * const stop = subscribe(
 *   { type: 'TIMESERIES', entityType: 'DEVICE', entityId: deviceId, scope: 'LATEST_TELEMETRY', keys: 'temperature' },
 *   (update) => console.log(update),
 * );
 * // later, e.g. in an effect's cleanup:
 * stop();
 * ```
 * Components usually want the hooks of `use-live.ts` instead.
 */
import {
  WS_IDLE_CLOSE_MS,
  WS_MAX_CMDS_PER_MESSAGE,
  WS_PATH,
  WS_POLICY_VIOLATION,
  WS_RECONNECT_DELAY_MS,
  type WsCmdType,
  type WsUpdate,
} from '../../server/contract/realtime.ts';
import { getSession, useSession } from '../stores/session.ts';

/** A command as a view describes it; the client adds the `cmdId`. */
export type LiveCommand = { type: WsCmdType } & Record<string, unknown>;
export type LiveListener = (update: WsUpdate) => void;

/** What the client needs of a WebSocket (the browser's, or a fake in tests). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type SocketFactory = (url: string) => SocketLike;

export interface LiveClientOptions {
  /** The socket's address, asked at each connect. */
  url: () => string;
  /** The current access token (null: signed out, nothing to connect for). */
  token: () => string | null;
  /** Refreshes the session's tokens; true when a new token is stored. */
  refresh: () => Promise<boolean>;
  /** Tells the client when the session's token changes; returns the unsubscribe. */
  onTokenChange?: (listener: (token: string | null) => void) => () => void;
  createSocket: SocketFactory;
  log?: (message: string, detail?: unknown) => void;
  reconnectDelayMs?: number;
  idleCloseMs?: number;
}

const OPEN = 1;
/** A normal close by the client (idle, signed out). */
const NORMAL_CLOSE = 1000;
/** After this many 1008 closes in a row (each after a successful refresh) the client gives up. */
const MAX_POLICY_CLOSES = 2;

/** The command that ends a subscription of `type`; null for one-shot commands. */
export function unsubscribeTypeOf(type: WsCmdType): WsCmdType | null {
  switch (type) {
    case 'TIMESERIES':
    case 'ATTRIBUTES':
    case 'ENTITY_DATA':
    case 'ENTITY_COUNT':
    case 'COMMANDS':
    case 'EDGE_STATE':
    case 'OTA_PROGRESS':
    case 'ALARM_DATA':
    case 'ALARM_COUNT':
    case 'NOTIFICATIONS':
      return `${type}_UNSUBSCRIBE`;
    case 'NOTIFICATIONS_COUNT':
      return 'NOTIFICATIONS_UNSUBSCRIBE';
    default:
      return null;
  }
}

interface Subscription {
  cmd: LiveCommand & { cmdId: number };
  listener: LiveListener;
}

export class LiveClient {
  private readonly subs = new Map<number, Subscription>();
  private readonly outbox: Record<string, unknown>[] = [];
  private socket: SocketLike | null = null;
  private nextCmdId = 1;
  private flushScheduled = false;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private policyCloses = 0;
  private readonly log: (message: string, detail?: unknown) => void;
  private readonly reconnectDelayMs: number;
  private readonly idleCloseMs: number;

  constructor(private readonly opts: LiveClientOptions) {
    this.log = opts.log ?? ((message, detail) => console.warn(`[live] ${message}`, detail ?? ''));
    this.reconnectDelayMs = opts.reconnectDelayMs ?? WS_RECONNECT_DELAY_MS;
    this.idleCloseMs = opts.idleCloseMs ?? WS_IDLE_CLOSE_MS;
    opts.onTokenChange?.((token) => this.tokenChanged(token));
  }

  /** Starts a live command; `onUpdate` gets every answer to it. Returns the unsubscribe. */
  subscribe(cmd: LiveCommand, onUpdate: LiveListener): () => void {
    const cmdId = this.nextCmdId++;
    const sub: Subscription = { cmd: { ...cmd, cmdId }, listener: onUpdate };
    this.subs.set(cmdId, sub);
    this.clearIdleTimer();
    if (this.isOpen()) this.enqueue(sub.cmd);
    else if (!this.socket && !this.reconnectTimer) this.connect();
    // A socket still connecting sends every subscription once it opens.
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      this.unsubscribe(cmdId);
    };
  }

  /** Live subscriptions right now (for tests and diagnostics). */
  get size(): number {
    return this.subs.size;
  }

  private unsubscribe(cmdId: number): void {
    const sub = this.subs.get(cmdId);
    if (!sub) return;
    this.subs.delete(cmdId);
    const queued = this.outbox.findIndex((c) => c.cmdId === cmdId);
    if (queued >= 0) {
      // Never sent: nothing for the server to end.
      this.outbox.splice(queued, 1);
    } else if (this.isOpen()) {
      const type = unsubscribeTypeOf(sub.cmd.type);
      if (type) this.enqueue({ type, cmdId });
    }
    if (this.subs.size === 0) this.startIdleTimer();
  }

  private isOpen(): boolean {
    return this.socket !== null && this.socket.readyState === OPEN;
  }

  private connect(): void {
    if (this.socket || !this.subs.size) return;
    const token = this.opts.token();
    if (!token) return;
    let socket: SocketLike;
    try {
      socket = this.opts.createSocket(this.opts.url());
    } catch (err) {
      this.log('cannot open the live connection', err);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => this.opened(socket);
    socket.onmessage = (event) => this.received(event.data);
    socket.onerror = (event) => this.log('live connection error', event);
    socket.onclose = (event) => void this.closed(socket, event.code);
  }

  private opened(socket: SocketLike): void {
    if (socket !== this.socket) return;
    this.outbox.length = 0;
    const cmds = [...this.subs.values()].map((s) => s.cmd);
    const token = this.opts.token() ?? '';
    // The first message authenticates and carries the first commands, as ThingsBoard's client does.
    const first = cmds.splice(0, WS_MAX_CMDS_PER_MESSAGE);
    this.send({ authCmd: { cmdId: 0, token }, ...(first.length ? { cmds: first } : {}) });
    this.outbox.push(...cmds);
    this.flush();
  }

  private received(data: unknown): void {
    let update: WsUpdate & { subscriptionId?: number };
    try {
      update = JSON.parse(String(data)) as WsUpdate & { subscriptionId?: number };
    } catch (err) {
      this.log('unreadable live message', err);
      return;
    }
    // Answers arrive, so the token was accepted.
    this.policyCloses = 0;
    const cmdId = typeof update.cmdId === 'number' ? update.cmdId : update.subscriptionId;
    const sub = cmdId === undefined ? undefined : this.subs.get(cmdId);
    if (!sub) {
      if (update.errorCode) this.log('live connection refused a message', update.errorMsg);
      return;
    }
    try {
      sub.listener(update);
    } catch (err) {
      this.log('a live listener failed', err);
    }
  }

  private async closed(socket: SocketLike, code: number): Promise<void> {
    if (socket !== this.socket) return;
    this.socket = null;
    this.outbox.length = 0;
    if (!this.subs.size) return;
    if (code === WS_POLICY_VIOLATION) {
      this.policyCloses += 1;
      if (this.policyCloses > MAX_POLICY_CLOSES || !(await this.refreshToken())) {
        this.log('live connection refused the session; not reconnecting', { code });
        return;
      }
    }
    this.scheduleReconnect();
  }

  private async refreshToken(): Promise<boolean> {
    try {
      return await this.opts.refresh();
    } catch (err) {
      this.log('session refresh failed', err);
      return false;
    }
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, this.reconnectDelayMs);
  }

  private tokenChanged(token: string | null): void {
    if (!token) {
      // Signed out: nothing may stay connected under the old session.
      this.closeSocket();
      return;
    }
    if (this.isOpen()) this.send({ authCmd: { cmdId: 0, token } });
  }

  private enqueue(cmd: Record<string, unknown>): void {
    this.outbox.push(cmd);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // Subscriptions made in one render go out together, at most ten per message.
    queueMicrotask(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.outbox.length && this.isOpen()) {
      this.send({ cmds: this.outbox.splice(0, WS_MAX_CMDS_PER_MESSAGE) });
    }
  }

  private send(message: Record<string, unknown>): void {
    try {
      this.socket?.send(JSON.stringify(message));
    } catch (err) {
      this.log('live send failed', err);
    }
  }

  private startIdleTimer(): void {
    this.clearIdleTimer();
    if (this.reconnectTimer) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = null;
    }
    if (!this.socket) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (!this.subs.size) this.closeSocket();
    }, this.idleCloseMs);
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private closeSocket(): void {
    const socket = this.socket;
    this.socket = null;
    this.outbox.length = 0;
    this.clearIdleTimer();
    if (!socket) return;
    try {
      socket.close(NORMAL_CLOSE);
    } catch (err) {
      this.log('live close failed', err);
    }
  }
}

/** The address of /api/ws from the page's own origin. */
export function liveSocketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}${WS_PATH}`;
}

let shared: LiveClient | null = null;

/** The console's one live client, created on first use. */
export function liveClient(): LiveClient {
  shared ??= new LiveClient({
    url: liveSocketUrl,
    token: () => getSession().token,
    // The HTTP client's refresh, loaded on demand so this module stays free of the page machinery.
    refresh: () => import('./api-client.ts').then((m) => m.refreshSession()),
    onTokenChange: (listener) =>
      useSession.subscribe((state, prev) => {
        if (state.token !== prev.token) listener(state.token);
      }),
    createSocket: (url) => new WebSocket(url),
  });
  return shared;
}

/** Starts a live command on the console's connection; returns the unsubscribe. */
export function subscribe(cmd: LiveCommand, onUpdate: LiveListener): () => void {
  return liveClient().subscribe(cmd, onUpdate);
}
