/**
 * A device-management test app whose event bus the test holds (to hear what the server announces
 * or to stand in for a transport event), listening on a real port for websocket clients, and a
 * websocket client of /api/ws.
 */
import { afterEach } from 'vitest';
import WebSocket from 'ws';
import type { AppOptions } from '../../server/app.ts';
import { WS_PATH } from '../../server/contract/realtime.ts';
import { EventBus } from '../../server/lib/event-bus.ts';
import { ContractClient, DeviceApi, type DeviceTestApp } from './devices.ts';
import { signIn } from './session.ts';
import { makeProvisionedApp, type AdminCredentials } from './setup.ts';

export interface LiveTestApp extends DeviceTestApp {
  admin: AdminCredentials;
  bus: EventBus;
  token: string;
  refreshToken: string;
  /** `http://127.0.0.1:<port>` once `listen` was called. */
  baseUrl: string;
}

export async function makeLiveApp(options: { listen?: boolean; tuning?: AppOptions['tuning'] } = {}): Promise<LiveTestApp> {
  const bus = new EventBus();
  const t = await makeProvisionedApp({ bus, tuning: options.tuning });
  const { token, refreshToken } = await signIn(t.app, t.admin.username, t.admin.password);
  let baseUrl = '';
  if (options.listen) {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no TCP address');
    baseUrl = `http://127.0.0.1:${address.port}`;
  }
  return { ...t, bus, token, refreshToken, baseUrl, api: new DeviceApi(t.app, token), anonymous: new ContractClient(t.app, null) };
}

const sockets: WebSocket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.terminate();
});

/** A websocket client of /api/ws that queues what the server sends. */
export class LiveClient {
  private readonly inbox: Record<string, unknown>[] = [];
  private readonly waiting: (() => void)[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      this.inbox.push(JSON.parse(data.toString('utf8')) as Record<string, unknown>);
      for (const wake of this.waiting.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  /** Opens `/api/ws` (or `path`; with `?token=` when given, and `headers` on the upgrade) and waits until the upgrade is done. */
  static async open(t: { baseUrl: string }, options: { token?: string; lang?: string; path?: string; headers?: Record<string, string> } = {}): Promise<LiveClient> {
    const url = `${t.baseUrl.replace(/^http/, 'ws')}${options.path ?? WS_PATH}${options.token ? `?token=${encodeURIComponent(options.token)}` : ''}`;
    const headers = { ...options.headers, ...(options.lang ? { 'accept-language': options.lang } : {}) };
    const socket = new WebSocket(url, { headers });
    sockets.push(socket);
    const client = new LiveClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Takes the first message (matching `accept`) out of the inbox, waiting for it if need be. */
  async next<T = Record<string, unknown>>(accept: (m: Record<string, unknown>) => boolean = () => true, timeoutMs = 5000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.inbox.findIndex(accept);
      if (i >= 0) return this.inbox.splice(i, 1)[0] as T;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such message within ${timeoutMs} ms; inbox: ${JSON.stringify(this.inbox)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The next message answering `cmdId`. */
  answer<T = Record<string, unknown>>(cmdId: number, timeoutMs?: number): Promise<T> {
    return this.next<T>((m) => m.cmdId === cmdId, timeoutMs);
  }

  /** Messages received so far and not taken. */
  pending(): Record<string, unknown>[] {
    return [...this.inbox];
  }
}
