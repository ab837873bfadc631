/**
 * `npm run bench -- --soak MINUTES`: the gateway under a steady load for a long while, to see
 * what grows. 1,000 devices (raw MQTT sockets, scripts/lib/bench-fleet.ts) publish QoS 1 at
 * 1 msg/s each (1,000 msg/s in all) while one live websocket follows 100 of them and the console
 * asks for an hour of history (AVG by minute) and the latest 100 raw values every 2 s. Every 10 s:
 * the binary's VmRSS, its event-loop delay (perf_hooks monitorEventLoopDelay, preloaded by
 * NODE_OPTIONS: scripts/lib/bench-eld-probe.cjs) and the bytes it wrote to storage per
 * acknowledged message (/proc/<pid>/io). The figure is the slope of RSS after the warm-up, by least
 * squares, in MB per 10 minutes; docs/bench/soak.png draws the three series.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { WS_MAX_CMDS_PER_MESSAGE } from '../../server/contract/realtime.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { root } from '../build.ts';
import type { RowSpec } from './bench-row.ts';
import { benchLicenceKeys } from './bench-gateway.ts';
import { chartSvg, writePng } from './bench-chart.ts';
import { count, lazyFreeOf, MB, percentile, rssByMapping, rssOf, sleep, writeBytesOf } from './bench-measure.ts';
import { Fleet } from './bench-fleet-client.ts';
import { provisionFleet, restartGateway } from './bench-scale.ts';

const DEVICES = 1000;
const RATE = 1;
const FOLLOWED = 100;
const SAMPLE_MS = 10_000;
const QUERY_EVERY_MS = 2000;
export const SOAK_PNG = join(root, 'docs/bench/soak.png');

interface Sample {
  min: number;
  rssMb: number;
  eldP99Ms: number;
  eldMaxMs: number;
  bytesPerMsg: number;
}

/** Least-squares slope of y over x. */
function slope(points: readonly [number, number][]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return num / den;
}

interface MemoryLine {
  thread: number;
  rss?: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  spaces: Record<string, number>;
  fullGcs?: number;
  fullGcMs?: number;
}

/** The probe's memory lines (a minute apart), per thread: the first and the last, to see what grew. */
function memoryGrowth(output: string): { thread: number; first: MemoryLine; last: MemoryLine }[] {
  const byThread = new Map<number, MemoryLine[]>();
  for (const m of output.matchAll(/MEMORY (\{.*\})/g)) {
    const line = JSON.parse(m[1]!) as MemoryLine;
    byThread.set(line.thread, [...(byThread.get(line.thread) ?? []), line]);
  }
  return [...byThread].map(([thread, lines]) => ({ thread, first: lines[0]!, last: lines.at(-1)! }));
}

function lastDelay(output: string): { p99: number; max: number } {
  const lines = output.match(/EVENT-LOOP-DELAY (\{.*\})/g);
  const last = lines?.at(-1);
  if (!last) return { p99: Number.NaN, max: Number.NaN };
  return JSON.parse(last.slice('EVENT-LOOP-DELAY '.length)) as { p99: number; max: number };
}

/** The probe's minute lines of the main thread (the one that gives the RSS). */
function mainMemoryLines(output: string): MemoryLine[] {
  return [...output.matchAll(/MEMORY (\{.*\})/g)].map((m) => JSON.parse(m[1]!) as MemoryLine).filter((l) => l.rss !== undefined);
}

/** The main thread's last heap line, as `old/new/code/lo MB` (physical): to see which space a step of RSS is. */
function lastMainSpaces(output: string): string {
  const lines = mainMemoryLines(output);
  const sp = lines.at(-1)?.spaces;
  const last = lines.at(-1);
  return sp ? `old ${sp.old} new ${sp.new} code ${sp.code} lo ${sp.large_object}, ${last?.fullGcs ?? '?'} full GCs ${last?.fullGcMs ?? '?'} ms (a minute's line)` : '-';
}

/** The main thread's full GCs over the run (the probe's minute lines): how many and their time. */
function fullGcsOfMain(output: string): { count: number; ms: number } {
  const lines = mainMemoryLines(output);
  return { count: lines.reduce((a, l) => a + (l.fullGcs ?? 0), 0), ms: lines.reduce((a, l) => a + (l.fullGcMs ?? 0), 0) };
}

/** The mappings whose resident memory moved by half a MB or more between two reads. */
function mappingSteps(before: Map<string, number>, after: Map<string, number>): string {
  const moved = [...new Set([...before.keys(), ...after.keys()])]
    .map((k) => [k, ((after.get(k) ?? 0) - (before.get(k) ?? 0)) / MB] as const)
    .filter(([, d]) => Math.abs(d) >= 0.5);
  return moved.length === 0 ? '-' : moved.map(([k, d]) => `${k} ${d > 0 ? '+' : ''}${d.toFixed(1)}`).join('; ');
}

/** `--soak MINUTES` on the command line, or null. */
export function soakMinutes(argv: readonly string[]): number | null {
  const i = argv.findIndex((a) => a === '--soak' || a.startsWith('--soak='));
  if (i < 0) return null;
  const value = Number(argv[i]!.includes('=') ? argv[i]!.split('=')[1] : argv[i + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error('bench: --soak takes a number of minutes');
  return value;
}

export async function soakRows(binary: string, minutes: number): Promise<RowSpec[]> {
  const keys = benchLicenceKeys();
  const dataDir = join(keys.dir, 'data');
  const fleet = Fleet.start();
  let gw: Awaited<ReturnType<typeof restartGateway>> | null = null;
  let socket: WebSocket | null = null;
  try {
    const devices = await provisionFleet(binary, dataDir, keys.publicKeyFile, keys.privateKeyPem, DEVICES);
    const probe = join(root, 'scripts/lib/bench-eld-probe.cjs');
    gw = await restartGateway(binary, dataDir, keys.publicKeyFile, { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${probe}`.trim() });
    const { bin, http } = gw;
    const connected = await fleet.connect(gw.mqttPort, devices.map((d) => d.token), { timeoutMs: 30_000, subscribe: true });
    if (connected.connected !== DEVICES) throw new Error(`bench: ${connected.connected} of ${DEVICES} devices connected for the soak`);

    // ---- the console: a live websocket and history queries
    socket = new WebSocket(`ws://127.0.0.1:${bin.port}/api/ws?token=${encodeURIComponent(http.accessToken ?? '')}`);
    await new Promise((resolve, reject) => socket!.once('open', resolve).once('error', reject));
    let liveUpdates = 0;
    socket.on('message', () => (liveUpdates += 1));
    const cmds = devices.slice(0, FOLLOWED).map((d, k) => ({ type: 'TIMESERIES', cmdId: k + 1, entityType: 'DEVICE', entityId: d.id, scope: 'LATEST_TELEMETRY', keys: 'temperature,humidity' }));
    // The server takes a few commands a message, as ThingsBoard's websocket does.
    for (let i = 0; i < cmds.length; i += WS_MAX_CMDS_PER_MESSAGE) socket.send(JSON.stringify({ cmds: cmds.slice(i, i + WS_MAX_CMDS_PER_MESSAGE) }));
    let querying = true;
    const queryMs: number[] = [];
    const queries = (async () => {
      for (let i = 0; querying; i++) {
        const id = devices[i % DEVICES]!.id;
        const started = performance.now();
        const now = Date.now();
        await http.call(telemetryRoutes.timeseries, { params: { id }, query: { keys: 'temperature', startTs: now - 3_600_000, endTs: now, interval: 60_000, agg: 'AVG' } });
        await http.call(telemetryRoutes.timeseries, { params: { id }, query: { keys: 'temperature,humidity', startTs: now - 3_600_000, endTs: now, limit: 100 } });
        queryMs.push(performance.now() - started);
        await sleep(QUERY_EVERY_MS);
      }
    })();

    // ---- the load and the samples
    await fleet.publish(RATE);
    const started = performance.now();
    const samples: Sample[] = [];
    let prev = { written: writeBytesOf(bin.pid), acked: (await fleet.stats()).acknowledged };
    const endAt = started + minutes * 60_000;
    let mappingsAtWarmup: Map<string, number> | null = null;
    let prevMappings = rssByMapping(bin.pid);
    while (performance.now() < endAt) {
      await sleep(Math.min(SAMPLE_MS, endAt - performance.now()));
      const stats = await fleet.stats();
      const written = writeBytesOf(bin.pid);
      const delay = lastDelay(bin.output());
      const acked = stats.acknowledged - prev.acked;
      samples.push({
        min: (performance.now() - started) / 60_000,
        rssMb: rssOf(bin.pid).rss / MB,
        eldP99Ms: delay.p99,
        eldMaxMs: delay.max,
        bytesPerMsg: acked > 0 ? (written - prev.written) / acked : Number.NaN,
      });
      prev = { written, acked: stats.acknowledged };
      const s = samples.at(-1)!;
      if (mappingsAtWarmup === null && s.min >= Math.min(3, minutes * 0.3)) mappingsAtWarmup = rssByMapping(bin.pid);
      const rss = rssOf(bin.pid);
      const mappings = rssByMapping(bin.pid);
      const spaces = lastMainSpaces(bin.output());
      const lazy = lazyFreeOf(bin.pid);
      console.log(
        `bench: soak ${s.min.toFixed(1)} min: RSS ${s.rssMb.toFixed(1)} MB (anon ${(rss.anon / MB).toFixed(1)}, file ${(rss.file / MB).toFixed(1)}, lazy-free ${(lazy.lazyFree / MB).toFixed(1)}, huge ${(lazy.hugePages / MB).toFixed(1)}), event loop p99 ${s.eldP99Ms.toFixed(1)} ms, ${s.bytesPerMsg.toFixed(0)} B written/msg, ${stats.dropped} dropped` +
          `; main heap ${spaces}; moved ≥ 0.5 MB since the last sample: ${mappingSteps(prevMappings, mappings)}`,
      );
      prevMappings = mappings;
    }
    querying = false;
    await queries;
    if (mappingsAtWarmup) {
      const end = rssByMapping(bin.pid);
      const grown = [...new Set([...mappingsAtWarmup.keys(), ...end.keys()])]
        .map((k) => [k, ((end.get(k) ?? 0) - (mappingsAtWarmup!.get(k) ?? 0)) / MB] as const)
        .filter(([, d]) => Math.abs(d) >= 0.1)
        .sort((a, b) => b[1] - a[1]);
      console.log(`bench: soak resident memory grown after the warm-up, by mapping (MB): ${grown.map(([k, d]) => `${k} ${d.toFixed(1)}`).join('; ')}`);
    }
    const gcs = fullGcsOfMain(bin.output());
    console.log(`bench: soak full GCs of the main thread: ${gcs.count} taking ${gcs.ms} ms in all`);
    const memory = memoryGrowth(bin.output());
    for (const { thread, first: a, last: b } of memory) console.log(`bench: soak memory of thread ${thread}, first → last minute: ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
    const final = await fleet.stats();
    const seconds = (performance.now() - started) / 1000;

    // ---- the figure: RSS slope after the warm-up
    const warmupMin = Math.min(3, minutes * 0.3);
    const steady = samples.filter((s) => s.min >= warmupMin).map((s) => [s.min, s.rssMb] as [number, number]);
    const perMinute = slope(steady);
    const first = steady[0] ?? [warmupMin, Number.NaN];
    const lastMin = samples.at(-1)?.min ?? minutes;
    const intercept = steady.reduce((a, p) => a + p[1], 0) / steady.length - perMinute * (steady.reduce((a, p) => a + p[0], 0) / steady.length);
    const eldP99 = percentile(samples.map((s) => s.eldP99Ms).filter(Number.isFinite), 50);
    const eldMax = Math.max(...samples.map((s) => s.eldMaxMs).filter(Number.isFinite));
    const bytes = samples.map((s) => s.bytesPerMsg).filter(Number.isFinite);
    const meanBytes = bytes.reduce((a, b) => a + b, 0) / (bytes.length || 1);
    mkdirSync(join(root, 'docs/bench'), { recursive: true });
    await writePng(
      chartSvg(`Soak: ${count(DEVICES)} devices × ${RATE} msg/s, ${minutes} min, websocket + history queries`, [
        {
          title: 'RSS of the gateway',
          unit: 'MB',
          points: samples.map((s) => [s.min, s.rssMb]),
          line: { from: [first[0], intercept + perMinute * first[0]], to: [lastMin, intercept + perMinute * lastMin], label: `after warm-up: ${(perMinute * 10).toFixed(2)} MB / 10 min` },
        },
        { title: 'Event-loop delay, p99 of each 10 s', unit: 'ms', points: samples.map((s) => [s.min, s.eldP99Ms]).filter((p) => Number.isFinite(p[1])) as [number, number][] },
        { title: 'Bytes written to storage per acknowledged message', unit: 'B', points: samples.map((s) => [s.min, s.bytesPerMsg]).filter((p) => Number.isFinite(p[1])) as [number, number][] },
      ]),
      SOAK_PNG,
    );
    return [
      {
        id: 'soakRssSlopeMbPer10Min',
        figure: `soak: RSS growth after warm-up, ${count(DEVICES)} devices at ${count(DEVICES * RATE)} msg/s for ${minutes} min`,
        value: perMinute * 10,
        unit: 'MB/10 min',
        budget: 1,
        note:
          `least-squares slope of VmRSS sampled every ${SAMPLE_MS / 1000} s after a ${warmupMin.toFixed(1)} min warm-up (docs/bench/soak.png); ` +
          `RSS ${samples[0]?.rssMb.toFixed(1)} → ${samples.at(-1)?.rssMb.toFixed(1)} MB; ${count(final.acknowledged / seconds)} msg/s acknowledged, ${final.dropped} dropped; ` +
          `event-loop delay p99 (median of the 10 s windows) ${eldP99.toFixed(1)} ms, worst ${eldMax.toFixed(0)} ms; ${meanBytes.toFixed(0)} B written per message; ` +
          `websocket ${count(liveUpdates)} updates for ${FOLLOWED} devices; ${queryMs.length} history query pairs, p95 ${percentile(queryMs, 95).toFixed(0)} ms; ` +
          `main thread ${gcs.count} full GCs, ${gcs.ms} ms in all`,
        detail: { minutes, warmupMin, fullGcs: gcs.count, fullGcMs: gcs.ms, eldP99Ms: eldP99, eldMaxMs: eldMax, bytesPerMessage: meanBytes, liveUpdates, historyQueries: queryMs.length },
      },
    ];
  } finally {
    socket?.close();
    await fleet.stop();
    await gw?.bin.kill();
    keys.remove();
  }
}
