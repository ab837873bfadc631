/**
 * A device-management test app whose event bus the test holds (to hear what the server announces
 * or to stand in for a transport event), listening on a real port for websocket clients, and a
 * websocket client of /api/ws.
 */
import { afterEach, expect } from 'vitest';
import WebSocket from 'ws';
import type { AppOptions } from '../../server/app.ts';
import type { Config } from '../../server/config.ts';
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

export async function makeLiveApp(options: { listen?: boolean; tuning?: AppOptions['tuning']; config?: Partial<Config> } = {}): Promise<LiveTestApp> {
  const bus = new EventBus();
  const t = await makeProvisionedApp({ ...options.config, bus, tuning: options.tuning });
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

  /** Takes every message received so far that answers `cmdId` out of the inbox. */
  discard(cmdId: number): Record<string, unknown>[] {
    const taken = this.inbox.filter((m) => m.cmdId === cmdId);
    this.inbox.splice(0, this.inbox.length, ...this.inbox.filter((m) => m.cmdId !== cmdId));
    return taken;
  }

  /**
   * Resolves once the server answered a command sent now: whatever it sent before handling it, the
   * sends it had put off to a later turn of its event loop included, has arrived by then.
   */
  async roundTrip(): Promise<void> {
    this.send({ cmds: [{ ...ROUND_TRIP, cmdId: ROUND_TRIP_CMD_ID }, { type: 'ENTITY_COUNT_UNSUBSCRIBE', cmdId: ROUND_TRIP_CMD_ID }] });
    await this.answer(ROUND_TRIP_CMD_ID);
  }
}

/** A cmdId tests leave alone, and a command every signed-in administrator gets a prompt answer to. */
const ROUND_TRIP_CMD_ID = 2_000_000_000;
const ROUND_TRIP = { type: 'ENTITY_COUNT', query: { entityFilter: { type: 'entityType', entityType: 'DEVICE' } } };

/** One command of a message's `cmds`. */
export type LiveCmd = { type: string; cmdId: number } & Record<string, unknown>;

export interface SilenceCheck {
  /** The subscription (or one-shot command) that must hear nothing more. */
  cmdId: number;
  /** What ends it, e.g. `{ type: 'ALARM_DATA_UNSUBSCRIBE', cmdId }`; none for a one-shot command already answered. */
  end?: LiveCmd;
  /** A subscription under another cmdId that hears the changes `cmdId` would hear. */
  witness: LiveCmd;
  /** Causes a change through a public interface (MQTT, HTTP). */
  change: () => Promise<unknown>;
  /** True for the witness's update that shows the change went out to subscribers. */
  heard: (update: Record<string, unknown>) => boolean;
}

/**
 * Asserts that `cmdId` hears nothing after `end`, without a timed wait: the witness subscribes in
 * the same message, so its first answer marks the moment the server had ended `cmdId` (what came
 * for it before is dropped); once the witness heard the change, and one round trip later, nothing
 * may have come for `cmdId`. Returns the witness's update.
 */
export async function expectSilenced(ws: LiveClient, check: SilenceCheck): Promise<Record<string, unknown>> {
  ws.send({ cmds: [...(check.end ? [check.end] : []), check.witness] });
  expect(await ws.answer(check.witness.cmdId)).toMatchObject({ errorCode: 0 });
  ws.discard(check.cmdId);
  await check.change();
  const heard = await ws.next((m) => m.cmdId === check.witness.cmdId && check.heard(m));
  await ws.roundTrip();
  expect(ws.pending().filter((m) => m.cmdId === check.cmdId)).toEqual([]);
  return heard;
}
