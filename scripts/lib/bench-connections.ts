/**
 * The connected-devices memory figure: the binary's resident memory with 1,000 devices connected
 * over MQTT, each publishing once a second (the device simulator, QoS 1, thing-model-shaped
 * telemetry, RPC subscription), after about 20 s. VmRSS is read from /proc of the gateway process,
 * so the simulator's own clients (in the bench process) are not in it.
 */
import type { RowSpec } from './bench-row.ts';
import { BENCH_ADMIN, startProvisionedGateway } from './bench-gateway.ts';
import { count, cpuMs, mb, MB, rssOf, watchRss } from './bench-measure.ts';
import { startSimulator, type RunningSimulator } from './simulator.ts';

const DEVICES = 1000;
const RATE = 1;
const RUN_MS = 20_000;

export async function connectionRows(binary: string): Promise<RowSpec[]> {
  const gw = await startProvisionedGateway(binary);
  let sim: RunningSimulator | null = null;
  try {
    const pid = gw.bin.pid;
    const before = rssOf(pid);
    const connectStarted = performance.now();
    sim = await startSimulator({
      url: gw.bin.url,
      mqttUrl: gw.mqttUrl,
      username: BENCH_ADMIN.username,
      password: BENCH_ADMIN.password,
      devices: DEVICES,
      rate: RATE,
      product: 'Bench-fleet',
    });
    const connectMs = performance.now() - connectStarted;
    const acked0 = sim.stats().acknowledged;
    const cpu0 = cpuMs(pid);
    const { peak, after, seconds } = await watchRss(pid, RUN_MS);
    const stats = sim.stats();
    const perSecond = (stats.acknowledged - acked0) / seconds;
    const cpuShare = (cpuMs(pid) - cpu0) / 10 / seconds;
    return [
      {
        id: 'rss1000DevicesMb',
        figure: `RSS with ${count(DEVICES)} connected devices at ${RATE} msg/s each`,
        value: after.rss / MB,
        unit: 'MB',
        budget: 160,
        note:
          `VmRSS of the binary after ${seconds.toFixed(0)} s of npm run simulate's devices (QoS 1, ${stats.connected}/${DEVICES} connected, ` +
          `${count(perSecond)} msg/s acknowledged by the server, ${stats.errors} errors, gateway CPU ${cpuShare.toFixed(0)} % of a core); ` +
          `anon ${mb(after.anon)} MB + file-backed ${mb(after.file)} MB; peak ${mb(peak.rss)} MB; ` +
          `${mb(before.rss)} MB before the devices; connecting took ${(connectMs / 1000).toFixed(1)} s`,
        detail: {
          rssBeforeMb: before.rss / MB,
          peakMb: peak.rss / MB,
          anonMb: after.anon / MB,
          fileMb: after.file / MB,
          connected: stats.connected,
          messagesPerSecond: perSecond,
          gatewayCpuPct: cpuShare,
        },
      },
    ];
  } finally {
    await sim?.stop();
    await gw.stop();
  }
}
