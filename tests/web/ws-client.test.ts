import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WS_IDLE_CLOSE_MS, WS_RECONNECT_DELAY_MS, type WsUpdate } from '../../server/contract/realtime.ts';
import { LiveClient, type LiveClientOptions, type SocketLike } from '../../web/lib/ws-client.ts';
import { mergeEntityState, mergeLatest, unknownEntityState } from '../../web/lib/use-live.ts';

/** A stand-in for the browser's WebSocket: the test opens, closes and answers it. */
class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: SocketLike['onopen'] = null;
  onclose: SocketLike['onclose'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onerror: SocketLike['onerror'] = null;
  readonly sent: Record<string, unknown>[] = [];
  closedWith: number | null = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('not open');
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(code = 1000): void {
    this.closedWith = code;
    this.readyState = 3;
  }
  // Test side
  open(): void {
    this.readyState = 1;
    this.onopen?.({} as Event);
  }
  drop(code: number): void {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' } as CloseEvent);
  }
  answer(update: Partial<WsUpdate> & { cmdId: number }): void {
    this.onmessage?.({ data: JSON.stringify({ errorCode: 0, errorMsg: null, ...update }) } as MessageEvent);
  }
  /** Every command sent, across messages. */
  cmds(): Record<string, unknown>[] {
    return this.sent.flatMap((m) => (m.cmds as Record<string, unknown>[] | undefined) ?? []);
  }
}

interface Harness {
  client: LiveClient;
  sockets: FakeSocket[];
  last(): FakeSocket;
  token: { value: string | null };
  refresh: ReturnType<typeof vi.fn>;
  setToken(token: string | null): void;
  logged: string[];
}

function harness(overrides: Partial<LiveClientOptions> = {}): Harness {
  const sockets: FakeSocket[] = [];
  const token = { value: 'token-1' as string | null };
  const listeners: ((t: string | null) => void)[] = [];
  const logged: string[] = [];
  const refresh = vi.fn(async () => {
    token.value = 'token-2';
    return true;
  });
  const client = new LiveClient({
    url: () => 'ws://gateway/api/ws',
    token: () => token.value,
    refresh,
    onTokenChange: (l) => {
      listeners.push(l);
      return () => undefined;
    },
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    log: (message) => logged.push(message),
    ...overrides,
  });
  return {
    client,
    sockets,
    last: () => sockets[sockets.length - 1]!,
    token,
    refresh,
    setToken(next) {
      token.value = next;
      for (const l of listeners) l(next);
    },
    logged,
  };
}

const latest = (entityId: string) => ({ type: 'TIMESERIES' as const, entityType: 'DEVICE', entityId, scope: 'LATEST_TELEMETRY' });

/** Lets queued microtasks (the client's batched send) run. */
const tick = () => Promise.resolve();

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the live connection', () => {
  it('opens nothing until the first subscriber arrives', () => {
    const h = harness();
    expect(h.sockets).toHaveLength(0);
    h.client.subscribe(latest('d1'), () => undefined);
    expect(h.sockets).toHaveLength(1);
    expect(h.last().url).toBe('ws://gateway/api/ws');
  });

  it('authenticates on open with the session token and the first commands', () => {
    const h = harness();
    h.client.subscribe(latest('d1'), () => undefined);
    h.client.subscribe(latest('d2'), () => undefined);
    h.last().open();
    const [first] = h.last().sent;
    expect(first?.authCmd).toEqual({ cmdId: 0, token: 'token-1' });
    expect((first?.cmds as { entityId: string }[] | undefined)?.map((c) => c.entityId)).toEqual(['d1', 'd2']);
  });

  it('shares one socket between subscribers and gives each its own cmdId', () => {
    const h = harness();
    h.client.subscribe(latest('d1'), () => undefined);
    h.client.subscribe(latest('d2'), () => undefined);
    h.last().open();
    const ids = h.last().cmds().map((c) => c.cmdId);
    expect(h.sockets).toHaveLength(1);
    expect(new Set(ids).size).toBe(2);
    expect(ids).not.toContain(0);
  });

  it('sends at most ten commands per message when many subscribe before the socket opens', () => {
    const h = harness();
    for (let i = 0; i < 23; i++) h.client.subscribe(latest(`d${i}`), () => undefined);
    h.last().open();
    const sizes = h.last().sent.map((m) => (m.cmds as unknown[]).length);
    expect(sizes).toEqual([10, 10, 3]);
    expect(h.last().cmds()).toHaveLength(23);
  });

  it('batches subscriptions made together on an open socket, ten per message', async () => {
    const h = harness();
    h.client.subscribe(latest('first'), () => undefined);
    h.last().open();
    h.last().sent.length = 0;
    for (let i = 0; i < 25; i++) h.client.subscribe(latest(`d${i}`), () => undefined);
    expect(h.last().sent).toHaveLength(0);
    await tick();
    expect(h.last().sent.map((m) => (m.cmds as unknown[]).length)).toEqual([10, 10, 5]);
  });

  it('hands each answer to the subscriber of its cmdId only', () => {
    const h = harness();
    const a: WsUpdate[] = [];
    const b: WsUpdate[] = [];
    h.client.subscribe(latest('d1'), (u) => a.push(u));
    h.client.subscribe(latest('d2'), (u) => b.push(u));
    h.last().open();
    const [idA] = h.last().cmds().map((c) => c.cmdId as number);
    h.last().answer({ cmdId: idA!, data: { t: [[1, 20]] }, cmdUpdateType: 'TIMESERIES' } as never);
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(0);
  });

  it('ends a subscription on the server with its unsubscribe command', async () => {
    const h = harness();
    const stop = h.client.subscribe(latest('d1'), () => undefined);
    h.client.subscribe({ type: 'ENTITY_DATA', query: {} }, () => undefined);
    h.last().open();
    const [id] = h.last().cmds().map((c) => c.cmdId);
    stop();
    await tick();
    expect(h.last().sent.at(-1)).toEqual({ cmds: [{ type: 'TIMESERIES_UNSUBSCRIBE', cmdId: id }] });
  });

  it('does not send a subscription that ended before it went out', async () => {
    const h = harness();
    h.client.subscribe(latest('keep'), () => undefined);
    h.last().open();
    h.last().sent.length = 0;
    const stop = h.client.subscribe(latest('gone'), () => undefined);
    stop();
    await tick();
    expect(h.last().sent).toEqual([]);
  });

  it('closes 90 s after the last subscriber leaves, not before', async () => {
    const h = harness();
    const stop = h.client.subscribe(latest('d1'), () => undefined);
    h.last().open();
    stop();
    vi.advanceTimersByTime(WS_IDLE_CLOSE_MS - 1);
    expect(h.last().closedWith).toBeNull();
    vi.advanceTimersByTime(1);
    expect(h.last().closedWith).toBe(1000);
    // A normal close while nobody listens is not followed by a reconnect.
    h.last().drop(1000);
    vi.advanceTimersByTime(WS_RECONNECT_DELAY_MS * 5);
    expect(h.sockets).toHaveLength(1);
  });

  it('keeps the socket when a new subscriber arrives within the 90 s', async () => {
    const h = harness();
    h.client.subscribe(latest('d1'), () => undefined)();
    h.last().open();
    vi.advanceTimersByTime(WS_IDLE_CLOSE_MS / 2);
    h.client.subscribe(latest('d2'), () => undefined);
    await tick();
    vi.advanceTimersByTime(WS_IDLE_CLOSE_MS);
    expect(h.last().closedWith).toBeNull();
    expect(h.sockets).toHaveLength(1);
    expect(h.last().cmds().at(-1)?.entityId).toBe('d2');
  });

  it('reconnects 2 s after a close while wanted and subscribes every active subscription again', () => {
    const h = harness();
    h.client.subscribe(latest('d1'), () => undefined);
    const stop = h.client.subscribe(latest('d2'), () => undefined);
    h.client.subscribe(latest('d3'), () => undefined);
    h.last().open();
    const before = h.last().cmds();
    stop();
    h.last().drop(1006);
    vi.advanceTimersByTime(WS_RECONNECT_DELAY_MS - 1);
    expect(h.sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(h.sockets).toHaveLength(2);
    h.last().open();
    expect(h.last().sent[0]?.authCmd).toEqual({ cmdId: 0, token: 'token-1' });
    const again = h.last().cmds();
    expect(again.map((c) => c.entityId)).toEqual(['d1', 'd3']);
    // Same cmdIds, so the views keep receiving on the ids they hold.
    expect(again.map((c) => c.cmdId)).toEqual([before[0]!.cmdId, before[2]!.cmdId]);
  });

  it('keeps trying every 2 s while the gateway is unreachable', () => {
    const h = harness();
    h.client.subscribe(latest('d1'), () => undefined);
    for (let i = 0; i < 3; i++) {
      h.last().drop(1006);
      vi.advanceTimersByTime(WS_RECONNECT_DELAY_MS);
    }
    expect(h.sockets).toHaveLength(4);
  });

  it('refreshes the session after a 1008 close and reconnects with the new token', async () => {
    const h = harness();
    h.client.subscribe(latest('d1'), () => undefined);
    h.last().open();
    h.last().drop(1008);
    await vi.waitFor(() => expect(h.refresh).toHaveBeenCalledTimes(1));
    await tick();
    vi.advanceTimersByTime(WS_RECONNECT_DELAY_MS);
    expect(h.sockets).toHaveLength(2);
    h.last().open();
    expect(h.last().sent[0]?.authCmd).toEqual({ cmdId: 0, token: 'token-2' });
  });

  it('stops reconnecting when the session cannot be refreshed', async () => {
    const h = harness({ refresh: async () => false });
    h.client.subscribe(latest('d1'), () => undefined);
    h.last().open();
    h.last().drop(1008);
    await tick();
    await tick();
    vi.advanceTimersByTime(WS_RECONNECT_DELAY_MS * 10);
    expect(h.sockets).toHaveLength(1);
    expect(h.logged.some((m) => m.includes('not reconnecting'))).toBe(true);
  });

  it('gives up after repeated 1008 closes even though refreshing works', async () => {
    const h = harness();
    h.client.subscribe(latest('d1'), () => undefined);
    for (let i = 0; i < 5; i++) {
      h.last().open();
      h.last().drop(1008);
      for (let j = 0; j < 5; j++) await tick();
      vi.advanceTimersByTime(WS_RECONNECT_DELAY_MS);
    }
    expect(h.sockets).toHaveLength(3);
  });

  it('hands a token the HTTP client refreshed to the open socket', () => {
    const h = harness();
    h.client.subscribe(latest('d1'), () => undefined);
    h.last().open();
    h.setToken('token-3');
    expect(h.last().sent.at(-1)).toEqual({ authCmd: { cmdId: 0, token: 'token-3' } });
  });

  it('closes at once on sign-out and does not reconnect without a token', () => {
    const h = harness();
    h.client.subscribe(latest('d1'), () => undefined);
    h.last().open();
    h.setToken(null);
    expect(h.last().closedWith).toBe(1000);
    h.last().drop(1000);
    vi.advanceTimersByTime(WS_RECONNECT_DELAY_MS * 3);
    expect(h.sockets).toHaveLength(1);
  });

  it('only logs socket errors and unreadable messages', () => {
    const h = harness();
    const seen: WsUpdate[] = [];
    h.client.subscribe(latest('d1'), (u) => seen.push(u));
    h.last().open();
    h.last().onerror?.({ type: 'error' } as Event);
    h.last().onmessage?.({ data: 'not json' } as MessageEvent);
    expect(seen).toEqual([]);
    expect(h.logged).toEqual(['live connection error', 'unreadable live message']);
  });
});

describe('live values', () => {
  it('keeps the newest value of each key and its thing-model flag', () => {
    const first = mergeLatest({}, { cmdId: 1, subscriptionId: 1, errorCode: 0, errorMsg: null, cmdUpdateType: 'TIMESERIES', data: { t: [[1, 20], [2, 21]], h: [[2, 50]] } });
    expect(first).toEqual({ t: { ts: 2, value: 21 }, h: { ts: 2, value: 50 } });
    const next = mergeLatest(first, { cmdId: 1, subscriptionId: 1, errorCode: 0, errorMsg: null, cmdUpdateType: 'TIMESERIES', data: { t: [[1, 5]], h: [[3, 200, 'out of range']] } });
    expect(next).toEqual({ t: { ts: 2, value: 21 }, h: { ts: 3, value: 200, flag: 'out of range' } });
  });

  it('follows the device state from the first answer and later updates', () => {
    const entity = (latestValues: object) => ({ entityId: { entityType: 'DEVICE' as const, id: 'd1' }, latest: latestValues, timeseries: {} });
    const first = mergeEntityState(
      unknownEntityState,
      {
        cmdId: 1, errorCode: 0, errorMsg: null, cmdUpdateType: 'ENTITY_DATA', update: null,
        data: { data: [entity({ ENTITY_FIELD: { deviceState: { ts: 10, value: 'INACTIVE' } }, SERVER_ATTRIBUTE: { lastOnlineTime: { ts: 10, value: null } } })], totalPages: 1, totalElements: 1, hasNext: false },
      },
      'd1',
    );
    expect(first).toEqual({ state: 'INACTIVE', ts: 10, lastOnlineTime: null, lastOfflineTime: null });
    const online = mergeEntityState(
      first,
      { cmdId: 1, errorCode: 0, errorMsg: null, cmdUpdateType: 'ENTITY_DATA', data: null, update: [entity({ ENTITY_FIELD: { deviceState: { ts: 20, value: 'ONLINE' } }, SERVER_ATTRIBUTE: { lastOnlineTime: { ts: 20, value: 20 } } })] },
      'd1',
    );
    expect(online).toEqual({ state: 'ONLINE', ts: 20, lastOnlineTime: 20, lastOfflineTime: null });
  });
});
