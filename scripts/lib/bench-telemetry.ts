/**
 * The telemetry pipeline's figures, measured on the built binary over real sockets on loopback:
 * 50 devices publish temperature and humidity over MQTT QoS 1 (each with at most 32 messages
 * unacknowledged) while one live websocket (`/api/ws`) follows all of them with LATEST_TELEMETRY
 * subscriptions. Reported: PUBACKed messages per second (a PUBACK means the value is committed to
 * SQLite), publish → websocket latency, and the same publishers against a bare aedes broker in its
 * own process in the same run (QoS 1, no storage), whose throughput the gateway should reach half of.
 * A second, paced phase (1,000 msg/s in all) gives the latency of a gateway that is not saturated.
 * Before both, on a gateway of its own with `--commit-interval-ms 0`, one device with one message
 * in flight: the PUBACK round trip of a commit (under the default flash budget such a device,
 * ~500 msg/s one at a time, is paced to a few commits a second by design; a real sensor at 2 msg/s
 * is the flash group's `flashLonePubackP50Ms_default`). Around each phase the gateway's /proc/<pid>/io write_bytes gives the
 * bytes written per message. A last phase repeats the sustained one with the same devices speaking
 * MQTT 5 (what ThingsBoard's Python SDK speaks), so that both protocol versions are measured on the
 * same gateway.
 * After the sustained phase the history API must hold every acknowledged message, or the run fails.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import type { MqttClient } from 'mqtt';
import type { TelemetryUpdate } from '../../server/contract/realtime.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { root } from '../build.ts';
import type { RowSpec } from './bench-row.ts';
import { startProvisionedGateway } from './bench-gateway.ts';
import { closeAll, connectPublishers, drive, type DriveResult, type Publisher } from './bench-load.ts';
import { count, cpuMs, percentile, schedNote, schedOf, schedShares, sleep, writeBytesOf } from './bench-measure.ts';
import { loneDevice } from './bench-lone-device.ts';
import type { ConsoleHttp } from './console-http.ts';
import { ensureDevices, ensureSimulatorProduct } from './simulator.ts';

const DEVICES = 50;
const WINDOW = 32;
const WARMUP_MS = 2000;
const DURATION_MS = 10_000;
const PACED_TOTAL_RATE = 1000;
const PACED_MS = 5000;
/** Distinct temperatures a device cycles through (−40.0 … 125.0 by 0.1, the model's range): a value names its message. */
const TEMPERATURE_STEPS = 1651;
const WS_CMDS_PER_MESSAGE = 10;
const LONE_MESSAGES = 1000;

function temperatureOf(seq: number): number {
  return Math.round((-40 + (seq % TEMPERATURE_STEPS) / 10) * 10) / 10;
}

/**
 * `{ts, values: {temperature, humidity}}` with a ts of its own per message. Values without a ts
 * take the arrival millisecond, and history keeps one value per device, key and millisecond (as
 * ThingsBoard does): at hundreds of messages per second per device most would overwrite each
 * other, and the bench would time overwrites instead of stored messages.
 */
export function payloads(devices: number): (i: number, seq: number) => string {
  const lastTs = new Array<number>(devices).fill(0);
  return (i, seq) => {
    const ts = Math.max(Date.now(), lastTs[i]! + 1);
    lastTs[i] = ts;
    return JSON.stringify({ ts, values: { temperature: temperatureOf(seq), humidity: Math.round(Math.random() * 1000) / 10 } });
  };
}

/** The bare broker in a child process; resolves its port. */
async function startBareBroker(): Promise<{ child: ChildProcessWithoutNullStreams; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts/lib/bench-bare-broker.ts')], { cwd: root });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const lines = createInterface({ input: child.stdout });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => String(line)),
    once(child, 'exit').then(() => {
      throw new Error(`bench: the bare aedes broker exited:\n${err}`);
    }),
  ]);
  return { child, port: (JSON.parse(first) as { port: number }).port };
}

interface LiveFollower {
  /** Latencies (ms) of values published inside [from, to]. */
  latencies(from: number, to: number): number[];
  /** Values that reached the websocket. */
  received: number;
  close(): void;
}

/**
 * One websocket following every device; `sentAt` maps `<device>:<temperature>` to when it was
 * published, and each value arriving on the socket takes its entry out.
 */
async function follow(wsUrl: string, token: string, deviceIds: readonly string[], sentAt: Map<string, number>): Promise<LiveFollower> {
  const socket = new WebSocket(`${wsUrl}?token=${encodeURIComponent(token)}`);
  await once(socket, 'open');
  const samples: { at: number; ms: number }[] = [];
  const follower = {
    received: 0,
    latencies: (from: number, to: number) => samples.filter((s) => s.at >= from && s.at <= to).map((s) => s.ms),
    close: () => socket.close(),
  };
  const answered = new Set<number>();
  let ready: () => void = () => undefined;
  let refused: (err: Error) => void = () => undefined;
  const allAnswered = new Promise<void>((resolve, reject) => {
    ready = resolve;
    refused = reject;
  });
  socket.on('close', (code) => refused(new Error(`bench: the websocket closed (${code})`)));
  socket.on('message', (raw: Buffer) => {
    const now = performance.now();
    const update = JSON.parse(raw.toString('utf8')) as TelemetryUpdate;
    if (update.errorCode) {
      refused(new Error(`bench: the websocket answered ${update.errorCode} ${update.errorMsg ?? ''}`));
      return;
    }
    const device = update.cmdId - 1;
    if (!answered.has(update.cmdId)) {
      answered.add(update.cmdId);
      if (answered.size === deviceIds.length) ready();
    }
    for (const [, value] of update.data?.temperature ?? []) {
      const key = `${device}:${String(value)}`;
      const at = sentAt.get(key);
      if (at === undefined) continue;
      sentAt.delete(key);
      follower.received++;
      samples.push({ at, ms: now - at });
    }
  });
  for (let i = 0; i < deviceIds.length; i += WS_CMDS_PER_MESSAGE) {
    const cmds = deviceIds.slice(i, i + WS_CMDS_PER_MESSAGE).map((entityId, k) => ({
      type: 'TIMESERIES',
      cmdId: i + k + 1,
      entityType: 'DEVICE',
      entityId,
      scope: 'LATEST_TELEMETRY',
      keys: 'temperature,humidity',
    }));
    socket.send(JSON.stringify({ cmds }));
  }
  await allAnswered;
  return follower;
}

/** History values of `temperature` since `since`, summed over the devices: one COUNT bucket each. */
async function storedValues(http: ConsoleHttp, deviceIds: readonly string[], since: number): Promise<number> {
  let total = 0;
  const startTs = since - 1000;
  // Device clocks may run a little ahead of ours (ts is at least the previous one plus 1 ms).
  const endTs = Date.now() + 60_000;
  for (const id of deviceIds) {
    const values = await http.call(telemetryRoutes.timeseries, {
      params: { id },
      query: { keys: 'temperature', startTs, endTs, agg: 'COUNT', interval: endTs - startTs },
    });
    total += (values.temperature ?? []).reduce((sum, p) => sum + Number(p.value), 0);
  }
  return total;
}

function latencyNote(ms: number[]): string {
  return `p50 ${percentile(ms, 50).toFixed(0)} ms, p95 ${percentile(ms, 95).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms (${count(ms.length)} values)`;
}

async function bareAedes(): Promise<{ result: DriveResult; cpuMsPer1k: number; sched: string }> {
  const { child, port } = await startBareBroker();
  let clients: MqttClient[] = [];
  try {
    const publishers: Publisher[] = Array.from({ length: DEVICES }, (_, i) => ({ username: `bare-${i}`, clientId: `bare-${i}` }));
    clients = await connectPublishers(`mqtt://127.0.0.1:${port}`, publishers);
    const cpu0 = cpuMs(child.pid!);
    const sched0 = schedOf(child.pid!);
    const result = await drive(clients, { window: WINDOW, warmupMs: WARMUP_MS, durationMs: DURATION_MS, payload: payloads(DEVICES) });
    const sched = schedNote(schedShares(sched0, schedOf(child.pid!)));
    // CPU over warm-up, window and drain, against every PUBACK of the run.
    return { result, cpuMsPer1k: ((cpuMs(child.pid!) - cpu0) / result.ackedAll) * 1000, sched };
  } finally {
    await closeAll(clients);
    child.stdin.end();
    if (child.exitCode === null) await once(child, 'exit');
  }
}

/** One device, one message in flight, on a gateway committing every batch at once; bytes written per message. */
async function loneRoundTrips(binary: string): Promise<{ lone: Awaited<ReturnType<typeof loneDevice>>; bytes: number }> {
  const gw = await startProvisionedGateway(binary, undefined, ['--commit-interval-ms', '0']);
  let clients: MqttClient[] = [];
  try {
    const product = await ensureSimulatorProduct(gw.http, 'Bench-telemetry');
    const [device] = await ensureDevices(gw.http, product.id, 1);
    clients = await connectPublishers(gw.mqttUrl, [{ username: device!.token, clientId: `bench-lone-${device!.id}` }]);
    const written = writeBytesOf(gw.bin.pid);
    const lone = await loneDevice(clients[0]!, LONE_MESSAGES);
    return { lone, bytes: (writeBytesOf(gw.bin.pid) - written) / LONE_MESSAGES };
  } finally {
    await closeAll(clients);
    await gw.stop();
  }
}

export async function telemetryRows(binary: string): Promise<RowSpec[]> {
  const bare = await bareAedes();
  const { lone, bytes: bytesLone } = await loneRoundTrips(binary);

  const gw = await startProvisionedGateway(binary);
  let clients: MqttClient[] = [];
  let live: LiveFollower | null = null;
  try {
    const product = await ensureSimulatorProduct(gw.http, 'Bench-telemetry');
    const devices = await ensureDevices(gw.http, product.id, DEVICES);
    const sentAt = new Map<string, number>();
    live = await follow(gw.wsUrl, gw.http.accessToken ?? '', devices.map((d) => d.id), sentAt);
    clients = await connectPublishers(gw.mqttUrl, devices.map((d) => ({ username: d.token, clientId: `bench-${d.id}` })));
    const payload = payloads(DEVICES);
    const message = (i: number, seq: number): string => {
      sentAt.set(`${i}:${temperatureOf(seq)}`, performance.now());
      return payload(i, seq);
    };

    const pid = gw.bin.pid;

    const runStarted = Date.now();
    const cpu0 = cpuMs(pid);
    const sched0 = schedOf(pid);
    const written0 = writeBytesOf(pid);
    const saturated = await drive(clients, { window: WINDOW, warmupMs: WARMUP_MS, durationMs: DURATION_MS, payload: message });
    const gwSched = schedNote(schedShares(sched0, schedOf(pid)));
    const gwCpuPer1k = ((cpuMs(pid) - cpu0) / saturated.ackedAll) * 1000;
    const writtenSaturated = writeBytesOf(pid);
    const bytesSaturated = (writtenSaturated - written0) / saturated.ackedAll;
    // The websocket update leaves right after the PUBACKs of its batch: let the last ones land.
    await sleep(300);
    const receivedSaturated = live.received;
    const stored = await storedValues(gw.http, devices.map((d) => d.id), runStarted);
    if (stored !== saturated.ackedAll) {
      throw new Error(`bench: ${saturated.ackedAll} messages were acknowledged but history holds ${stored} temperature values`);
    }
    const saturatedMs = live.latencies(saturated.from, saturated.to);

    const paced = await drive(clients, {
      window: WINDOW,
      warmupMs: 1000,
      durationMs: PACED_MS,
      ratePerPublisher: PACED_TOTAL_RATE / DEVICES,
      payload: message,
    });
    await sleep(300);
    const pacedMs = live.latencies(paced.from, paced.to);
    const bytesPaced = (writeBytesOf(pid) - writtenSaturated) / paced.ackedAll;
    const loneNote = `p50 ${percentile(lone.roundTrips, 50).toFixed(2)} ms, p99 ${percentile(lone.roundTrips, 99).toFixed(2)} ms, ${count((LONE_MESSAGES * 1000) / lone.ms)} msg/s`;

    // MQTT 5: the same devices reconnect with protocol version 5, same payloads, window and duration.
    const storedBefore = await storedValues(gw.http, devices.map((d) => d.id), runStarted);
    await closeAll(clients);
    clients = await connectPublishers(gw.mqttUrl, devices.map((d) => ({ username: d.token, clientId: `bench-${d.id}` })), 5);
    const cpu5 = cpuMs(pid);
    const v5 = await drive(clients, { window: WINDOW, warmupMs: WARMUP_MS, durationMs: DURATION_MS, payload: message });
    const v5CpuPer1k = ((cpuMs(pid) - cpu5) / v5.ackedAll) * 1000;
    const storedV5 = (await storedValues(gw.http, devices.map((d) => d.id), runStarted)) - storedBefore;
    if (storedV5 !== v5.ackedAll) throw new Error(`bench: ${v5.ackedAll} MQTT 5 messages were acknowledged but history holds ${storedV5} more temperature values`);

    const ratio = (saturated.perSecond / bare.result.perSecond) * 100;
    const cpuRatio = (bare.cpuMsPer1k / gwCpuPer1k) * 100;
    const shape = `${DEVICES} MQTT connections, QoS 1, ≤ ${WINDOW} unacked each, ${(WARMUP_MS / 1000).toFixed(0)} s warm-up then ${(DURATION_MS / 1000).toFixed(0)} s`;
    return [
      {
        id: 'telemetryMsgPerSec',
        figure: 'telemetry MQTT QoS 1 → SQLite → websocket, sustained',
        value: saturated.perSecond,
        unit: 'msg/s',
        note:
          `${shape}; payload {ts, values: {temperature, humidity}} checked against the published thing model, every acknowledged message found in history afterwards (${count(stored)} values of each key); one websocket follows all ${DEVICES} devices ` +
          `(received ${count(receivedSaturated)} values); gateway CPU ${gwCpuPer1k.toFixed(0)} ms per 1,000 msgs, ${gwSched}; publishers' process ${(saturated.benchCpuShare * 100).toFixed(0)} % of a core`,
        detail: { acked: saturated.acked, errors: saturated.errors, gatewayCpuMsPer1k: gwCpuPer1k, wsReceived: receivedSaturated, benchCpuShare: saturated.benchCpuShare },
      },
      {
        id: 'telemetryMqtt5MsgPerSec',
        figure: 'telemetry MQTT 5 QoS 1 → SQLite → websocket, sustained',
        value: v5.perSecond,
        unit: 'msg/s',
        note: `the row above with the same ${DEVICES} devices reconnected as MQTT 5 clients, right after it; every acknowledged message found in history (${count(storedV5)}); gateway CPU ${v5CpuPer1k.toFixed(0)} ms per 1,000 msgs; ${((v5.perSecond / bare.result.perSecond) * 100).toFixed(0)} % of bare aedes (3.1.1)`,
        detail: { acked: v5.acked, errors: v5.errors, gatewayCpuMsPer1k: v5CpuPer1k, benchCpuShare: v5.benchCpuShare },
      },
      {
        id: 'bareAedesMsgPerSec',
        figure: 'bare aedes, same publishers, same run',
        value: bare.result.perSecond,
        unit: 'msg/s',
        note: `${shape}; aedes in its own process, in-memory persistence, no storage, no subscribers; broker CPU ${bare.cpuMsPer1k.toFixed(0)} ms per 1,000 msgs, ${bare.sched}; publishers' process ${(bare.result.benchCpuShare * 100).toFixed(0)} % of a core`,
        detail: { acked: bare.result.acked, errors: bare.result.errors, brokerCpuMsPer1k: bare.cpuMsPer1k, benchCpuShare: bare.result.benchCpuShare },
      },
      {
        id: 'telemetryVsBareAedesPct',
        figure: 'telemetry pipeline throughput vs bare aedes',
        value: ratio,
        unit: '%',
        budget: 50,
        better: 'higher',
        note: `${count(saturated.perSecond)} ÷ ${count(bare.result.perSecond)} msg/s; by CPU per message (less sensitive to the machine's load) ${cpuRatio.toFixed(0)} %`,
        detail: { cpuRatioPct: cpuRatio },
      },
      {
        id: 'telemetryLatencyP99Ms',
        figure: 'publish → websocket update, p99, saturated',
        value: percentile(saturatedMs, 99),
        unit: 'ms',
        note: `during the sustained run above: ${latencyNote(saturatedMs)}; at saturation it is mostly queueing (${DEVICES} × ${WINDOW} messages in flight)`,
        detail: { p50: percentile(saturatedMs, 50), p95: percentile(saturatedMs, 95), p99: percentile(saturatedMs, 99), values: saturatedMs.length },
      },
      {
        id: 'telemetryPacedLatencyP99Ms',
        figure: `publish → websocket update, p99, at ${count(PACED_TOTAL_RATE)} msg/s`,
        value: percentile(pacedMs, 99),
        unit: 'ms',
        note: `${DEVICES} devices × ${PACED_TOTAL_RATE / DEVICES} msg/s for ${PACED_MS / 1000} s (reached ${count(paced.perSecond)} msg/s acknowledged): ${latencyNote(pacedMs)}`,
        detail: { p50: percentile(pacedMs, 50), p95: percentile(pacedMs, 95), p99: percentile(pacedMs, 99), values: pacedMs.length, perSecond: paced.perSecond },
      },
      {
        id: 'telemetryLonePubackP50Ms',
        figure: 'PUBACK latency, lone device, one message in flight (p50, p99)',
        value: percentile(lone.roundTrips, 50),
        unit: 'ms',
        budget: 2,
        note: `one MQTT connection publishes ${count(LONE_MESSAGES)} 2-value QoS 1 messages, each after the previous PUBACK, on a gateway of its own with --commit-interval-ms 0 (every commit at once: what a commit costs): ${loneNote}`,
        detail: { p50: percentile(lone.roundTrips, 50), p99: percentile(lone.roundTrips, 99), perSecond: (LONE_MESSAGES * 1000) / lone.ms },
      },
      {
        id: 'telemetryWriteBytesPerMsg',
        figure: 'disk written per 2-value telemetry message (B)',
        value: bytesSaturated,
        unit: 'B',
        budget: 150,
        note:
          `gateway's /proc/<pid>/io write_bytes (WAL and checkpoints, worker thread included) over the sustained run ÷ its ${count(saturated.ackedAll)} acknowledged messages; ` +
          `at ${count(PACED_TOTAL_RATE)} msg/s paced: ${count(bytesPaced)} B; lone device, one message per commit (--commit-interval-ms 0): ${count(bytesLone)} B`,
        detail: { saturated: bytesSaturated, paced: bytesPaced, lone: bytesLone },
      },
    ];
  } finally {
    live?.close();
    await closeAll(clients);
    await gw.stop();
  }
}
