/**
 * MQTT publishers for the bench: N real client connections publishing QoS 1, each keeping at most
 * `window` messages unacknowledged, either as fast as PUBACKs come back or paced at a rate per
 * device. Throughput is the PUBACKs that arrive inside the measuring window, after a warm-up.
 */
import { connectAsync, type MqttClient } from 'mqtt';
import { deviceTopics } from '../../server/contract/device-api.ts';
import { sleep } from './bench-measure.ts';

const CONNECT_CONCURRENCY = 50;
const PACE_TICK_MS = 10;
const DRAIN_MS = 10_000;

export interface Publisher {
  username: string;
  clientId: string;
}

/** `protocolVersion`: 4 (MQTT 3.1.1, what most devices speak) or 5 (ThingsBoard's Python SDK). */
export async function connectPublishers(mqttUrl: string, publishers: readonly Publisher[], protocolVersion: 4 | 5 = 4): Promise<MqttClient[]> {
  const clients: MqttClient[] = [];
  try {
    for (let i = 0; i < publishers.length; i += CONNECT_CONCURRENCY) {
      const batch = publishers.slice(i, i + CONNECT_CONCURRENCY);
      clients.push(
        ...(await Promise.all(
          batch.map((p) => connectAsync(mqttUrl, { username: p.username, clientId: p.clientId, clean: true, keepalive: 60, reconnectPeriod: 0, protocolVersion }, false)),
        )),
      );
    }
  } catch (err) {
    await closeAll(clients);
    throw err;
  }
  return clients;
}

export async function closeAll(clients: readonly MqttClient[]): Promise<void> {
  await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
}

export interface DriveOptions {
  /** Unacknowledged QoS 1 messages a publisher may have at once. */
  window: number;
  warmupMs: number;
  durationMs: number;
  /** Measures until this settles instead of for `durationMs` (a load kept up while something else is measured). */
  until?: Promise<unknown>;
  /** Messages per second per publisher; left out: as fast as the window allows. */
  ratePerPublisher?: number;
  /** The payload of publisher `i`'s `seq`-th message (called when it is sent). */
  payload(i: number, seq: number): string;
  /** Keeps each PUBACK round trip (ms) of a message sent inside the measuring window in `DriveResult.pubackMs`. */
  pubackTimes?: boolean;
}

export interface DriveResult {
  /** PUBACKs inside the measuring window. */
  acked: number;
  /** PUBACKs of the whole run: warm-up, window and drain. */
  ackedAll: number;
  /** Messages sent inside the measuring window. */
  sent: number;
  perSecond: number;
  errors: number;
  /** performance.now() of the measuring window's start and end. */
  from: number;
  to: number;
  /** CPU the bench process itself used during the window, as a share of one core. */
  benchCpuShare: number;
  /** PUBACK round trips (ms) of the messages sent inside the window, when `pubackTimes` asked for them. */
  pubackMs: number[];
}

export async function drive(clients: readonly MqttClient[], opts: DriveOptions): Promise<DriveResult> {
  const n = clients.length;
  const inflight = new Array<number>(n).fill(0);
  const seq = new Array<number>(n).fill(0);
  const owed = new Array<number>(n).fill(0);
  let measuring = false;
  let stopping = false;
  let acked = 0;
  let ackedAll = 0;
  let sent = 0;
  let errors = 0;
  const paced = opts.ratePerPublisher !== undefined;
  const pubackMs: number[] = [];

  const send = (i: number): void => {
    inflight[i]!++;
    if (measuring) sent++;
    const sentAt = opts.pubackTimes && measuring ? performance.now() : -1;
    clients[i]!.publish(deviceTopics.telemetry, opts.payload(i, seq[i]!++), { qos: 1 }, (err) => {
      inflight[i]!--;
      if (err) errors++;
      else {
        ackedAll++;
        if (measuring) acked++;
        if (sentAt >= 0) pubackMs.push(performance.now() - sentAt);
      }
      if (!stopping) pump(i);
    });
  };
  const pump = (i: number): void => {
    if (paced) {
      for (; owed[i]! >= 1 && inflight[i]! < opts.window; owed[i]!--) send(i);
    } else {
      while (inflight[i]! < opts.window) send(i);
    }
  };

  let timer: NodeJS.Timeout | null = null;
  if (paced) {
    let last = performance.now();
    // Publishers start at spread phases so paced messages do not all leave in the same tick.
    for (let i = 0; i < n; i++) owed[i] = i / n;
    timer = setInterval(() => {
      const now = performance.now();
      const due = (opts.ratePerPublisher! * (now - last)) / 1000;
      last = now;
      for (let i = 0; i < n; i++) {
        // A publisher held back by its window does not burst to catch up.
        owed[i] = Math.min(owed[i]! + due, opts.window);
        pump(i);
      }
    }, PACE_TICK_MS);
  } else {
    for (let i = 0; i < n; i++) pump(i);
  }

  await sleep(opts.warmupMs);
  const cpuBefore = process.cpuUsage();
  measuring = true;
  const from = performance.now();
  await (opts.until ? opts.until.catch(() => undefined) : sleep(opts.durationMs));
  measuring = false;
  const to = performance.now();
  const cpu = process.cpuUsage(cpuBefore);
  stopping = true;
  if (timer) clearInterval(timer);
  for (let waited = 0; waited < DRAIN_MS && inflight.some((x) => x > 0); waited += 20) await sleep(20);

  const seconds = (to - from) / 1000;
  return { acked, ackedAll, sent, perSecond: acked / seconds, errors, from, to, benchCpuShare: (cpu.user + cpu.system) / 1000 / (to - from), pubackMs };
}
