/**
 * A fleet of MQTT 3.1.1 devices in its own process, for the bench's 10,000-device figures
 * (scripts/lib/bench-scale.ts, scripts/lib/bench-soak.ts): raw sockets with hand-written frames
 * instead of MQTT.js clients, which carry a stream, a store and timers each: with 10,000 of them in
 * one process the client would be the bottleneck the figures measure. This process holds 10,000
 * sockets in 170-265 MB of its own and reports its RSS with its counters.
 * Each device is one socket, one CONNECT (its access token as user name), optionally one
 * SUBSCRIBE to its RPC topic, then QoS 1 telemetry at a rate per device.
 *
 * Driven by its parent over stdin/stdout, one JSON object a line (scripts/lib/bench-fleet-client.ts
 * is the parent's side); it exits when stdin closes, so it never outlives the bench.
 */
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { deviceTopics } from '../../server/contract/device-api.ts';

export type FleetRequest =
  | { op: 'connect'; port: number; tokens: string[]; timeoutMs: number; subscribe: boolean }
  | { op: 'publish'; rate: number }
  | { op: 'pause' }
  | { op: 'stats' }
  | { op: 'close' };

export interface ConnectReport {
  op: 'connect';
  devices: number;
  /** CONNACK 0 received. */
  connected: number;
  /** CONNACK with a refusal code. */
  refused: number;
  /** No CONNACK within the timeout (the socket is then closed, as a client would). */
  timedOut: number;
  /** Socket errors or closes before a CONNACK. */
  failed: number;
  /** From the first socket opened to the last CONNACK 0, ms. */
  allConnectedMs: number;
  /** CONNECT sent → CONNACK, ms, per device. */
  connackP50Ms: number;
  connackP95Ms: number;
  connackMaxMs: number;
}

export interface FleetStats {
  op: 'stats';
  connected: number;
  published: number;
  acknowledged: number;
  /** Connections the gateway closed after CONNACK. */
  dropped: number;
  /** The fleet process's own resident memory, MB. */
  clientRssMb: number;
}

const CONNECT = 0x10;
const CONNACK = 0x20;
const PUBLISH_QOS1 = 0x32;
const PUBACK = 0x40;
const SUBSCRIBE = 0x82;
const PINGREQ = Buffer.from([0xc0, 0x00]);
const KEEPALIVE_S = 60;
const PING_EVERY_MS = 30_000;
const TICK_MS = 10;

function remainingLength(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

function utf8Field(s: string): Buffer {
  const b = Buffer.from(s);
  const len = Buffer.alloc(2);
  len.writeUInt16BE(b.length);
  return Buffer.concat([len, b]);
}

function frame(type: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([type, ...remainingLength(body.length)]), body]);
}

function connectFrame(clientId: string, username: string): Buffer {
  const header = Buffer.from([0x00, 0x04, 0x4d, 0x51, 0x54, 0x54, 0x04, 0x82, KEEPALIVE_S >> 8, KEEPALIVE_S & 0xff]); // MQTT 3.1.1, clean session, user name
  return frame(CONNECT, Buffer.concat([header, utf8Field(clientId), utf8Field(username)]));
}

function subscribeFrame(messageId: number, filter: string): Buffer {
  return frame(SUBSCRIBE, Buffer.concat([Buffer.from([messageId >> 8, messageId & 0xff]), utf8Field(filter), Buffer.from([1])]));
}

const telemetryTopic = utf8Field(deviceTopics.telemetry);

function publishFrame(messageId: number, payload: string): Buffer {
  return frame(PUBLISH_QOS1, Buffer.concat([telemetryTopic, Buffer.from([messageId >> 8, messageId & 0xff]), Buffer.from(payload)]));
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1]!;
}

type State = 'connecting' | 'open' | 'done';

class Device {
  socket: Socket | null = null;
  state: State = 'connecting';
  sentAt = 0;
  connackMs = -1;
  nextId = 1;
  lastSent = 0;
  private rest: Buffer | null = null;

  constructor(
    readonly index: number,
    readonly token: string,
  ) {}

  /** Splits what arrived into frames; `onFrame(type, body)` for each whole one. */
  read(chunk: Buffer, onFrame: (type: number, body: Buffer) => void): void {
    let buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    this.rest = null;
    while (buf.length >= 2) {
      let len = 0;
      let mul = 1;
      let i = 1;
      for (; i < buf.length && i <= 4; i++) {
        len += (buf[i]! & 0x7f) * mul;
        mul *= 128;
        if (!(buf[i]! & 0x80)) break;
      }
      if (i >= buf.length || buf.length < i + 1 + len) break;
      onFrame(buf[0]! & 0xf0, buf.subarray(i + 1, i + 1 + len));
      buf = buf.subarray(i + 1 + len);
    }
    if (buf.length > 0) this.rest = Buffer.from(buf);
  }

  messageId(): number {
    const id = this.nextId;
    this.nextId = (this.nextId % 65_535) + 1;
    return id;
  }
}

let devices: Device[] = [];
let published = 0;
let acknowledged = 0;
let dropped = 0;
let publishTimer: NodeJS.Timeout | null = null;
let pingTimer: NodeJS.Timeout | null = null;
let seq = 0;

function reply(message: ConnectReport | FleetStats | { op: string }): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function connectAll(port: number, tokens: string[], timeoutMs: number, subscribe: boolean): Promise<ConnectReport> {
  for (const d of devices) d.socket?.destroy();
  devices = tokens.map((t, i) => new Device(i, t));
  const started = performance.now();
  let lastConnack = started;
  let pending = devices.length;
  const counts = { connected: 0, refused: 0, timedOut: 0, failed: 0 };
  return new Promise((resolve) => {
    const settle = (d: Device, outcome: keyof typeof counts): void => {
      if (d.state !== 'connecting') return;
      d.state = outcome === 'connected' ? 'open' : 'done';
      counts[outcome] += 1;
      if (--pending === 0) finish();
    };
    const finish = (): void => {
      clearTimeout(deadline);
      const times = devices.filter((d) => d.connackMs >= 0).map((d) => d.connackMs).sort((a, b) => a - b);
      resolve({
        op: 'connect',
        devices: devices.length,
        ...counts,
        allConnectedMs: lastConnack - started,
        connackP50Ms: percentile(times, 50),
        connackP95Ms: percentile(times, 95),
        connackMaxMs: times.at(-1) ?? Number.NaN,
      });
    };
    // Every device at once, as after a power cut: the gateway sees the whole storm together.
    for (const d of devices) {
      const socket = connect({ port, host: '127.0.0.1', noDelay: true });
      d.socket = socket;
      socket.on('connect', () => {
        d.sentAt = performance.now();
        socket.write(connectFrame(`fleet-${d.index}`, d.token));
      });
      socket.on('data', (chunk: Buffer) =>
        d.read(chunk, (type, body) => {
          if (type === PUBACK) acknowledged += 1;
          else if (type === CONNACK) {
            if (body[1] === 0) {
              d.connackMs = performance.now() - d.sentAt;
              lastConnack = performance.now();
              if (subscribe) socket.write(subscribeFrame(d.messageId(), `${deviceTopics.rpcRequest}+`));
              settle(d, 'connected');
            } else {
              settle(d, 'refused');
              socket.destroy();
            }
          }
        }),
      );
      socket.on('error', () => undefined);
      socket.on('close', () => {
        if (d.state === 'open') dropped += 1;
        settle(d, 'failed');
        d.state = 'done';
      });
    }
    const deadline = setTimeout(() => {
      for (const d of devices) {
        if (d.state !== 'connecting') continue;
        settle(d, 'timedOut');
        d.socket?.destroy();
      }
    }, timeoutMs);
    if (devices.length === 0) finish();
  });
}

/** Each open device publishes `rate` messages a second, spread evenly over the second. */
function publish(rate: number): void {
  stopPublishing();
  const open = devices.filter((d) => d.state === 'open');
  const perTick = (open.length * rate * TICK_MS) / 1000;
  let due = 0;
  let cursor = 0;
  publishTimer = setInterval(() => {
    due += perTick;
    const now = Date.now();
    for (; due >= 1 && open.length > 0; due -= 1) {
      const d = open[cursor]!;
      cursor = (cursor + 1) % open.length;
      if (d.state !== 'open') continue;
      seq += 1;
      const payload = `{"temperature":${(20 + (seq % 100) / 10).toFixed(1)},"humidity":${(seq % 1000) / 10}}`;
      d.socket!.write(publishFrame(d.messageId(), payload));
      d.lastSent = now;
      published += 1;
    }
  }, TICK_MS);
}

function stopPublishing(): void {
  if (publishTimer) clearInterval(publishTimer);
  publishTimer = null;
}

/** Idle devices ping within their keepalive, so that a pause in publishing does not drop them. */
function keepAlive(): void {
  pingTimer = setInterval(() => {
    const now = Date.now();
    for (const d of devices) if (d.state === 'open' && now - d.lastSent > PING_EVERY_MS) d.socket!.write(PINGREQ);
  }, PING_EVERY_MS);
}

function stats(): FleetStats {
  return {
    op: 'stats',
    connected: devices.filter((d) => d.state === 'open').length,
    published,
    acknowledged,
    dropped,
    clientRssMb: process.memoryUsage.rss() / 1024 / 1024,
  };
}

keepAlive();
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const req = JSON.parse(line) as FleetRequest;
  switch (req.op) {
    case 'connect':
      void connectAll(req.port, req.tokens, req.timeoutMs, req.subscribe).then(reply);
      return;
    case 'publish':
      publish(req.rate);
      return reply({ op: 'publish' });
    case 'pause':
      stopPublishing();
      return reply({ op: 'pause' });
    case 'stats':
      return reply(stats());
    case 'close':
      stopPublishing();
      for (const d of devices) {
        d.state = 'done';
        d.socket?.destroy();
      }
      return reply({ op: 'close' });
  }
});
lines.on('close', () => {
  if (pingTimer) clearInterval(pingTimer);
  process.exit(0);
});
