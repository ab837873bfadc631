/**
 * The fleet-scale figures (DESIGN.md section 7): 10,000 MQTT devices on one gateway.
 * - RSS with 10,000 connected devices at 1 msg/s each (QoS 1, each subscribed to its RPC topic),
 *   read from /proc of the binary after 30 s of publishing, on a gateway restarted after the
 *   devices were created (as it runs in the field, without the heap of the creation calls).
 * - The reconnect storm: the gateway is stopped and started again on the same data dir, and all
 *   10,000 devices connect at once (as after a power cut): seconds until the last CONNACK, devices
 *   without a CONNACK after 30 s (MQTT.js's default connect timeout), and the device list's p95
 *   while the storm lasts, asked five times a second with the workbench counts every 2 s.
 * The devices are raw sockets in one process of their own (scripts/lib/bench-fleet.ts), so their
 * cost is not the gateway's and not the bench's. Both processes need a file descriptor per device:
 * `ulimit -n` must allow 10,000 + a few hundred (checked first).
 */
import { join } from 'node:path';
import { BATCH_MAX, deviceImportRoutes } from '../../server/contract/device-import.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { productRoutes } from '../../server/contract/product.ts';
import { workbenchRoutes } from '../../server/contract/workbench.ts';
import { openFileLimit } from '../../server/lib/open-file-limit.ts';
import { startBinary, type RunningBinary } from '../../tests/helpers/binary.ts';
import { startAfterReboot } from './bench-start.ts';
import type { RowSpec } from './bench-row.ts';
import { BENCH_ADMIN, benchLicenceKeys, mqttPortOf, provision } from './bench-gateway.ts';
import { count, cpuMs, mb, MB, percentile, rssOf, sleep, watchRss } from './bench-measure.ts';
import type { ConnectReport } from './bench-fleet.ts';
import { Fleet } from './bench-fleet-client.ts';
import { ConsoleHttp } from './console-http.ts';

export const SCALE_DEVICES = 10_000;
const RATE = 1;
const RUN_MS = 30_000;
/** MQTT.js gives up on a CONNACK after 30 s (its connectTimeout): a device still waiting then timed out. */
const CONNACK_TIMEOUT_MS = 30_000;
/** File descriptors beyond the devices' sockets: database files, HTTP, the websocket, stdio. */
const FD_HEADROOM = 500;

export interface ScaleGateway {
  bin: RunningBinary;
  http: ConsoleHttp;
  mqttPort: number;
}

export interface FleetDevice {
  id: string;
  token: string;
}

/** A provisioned gateway on `dataDir` with `devices` MQTT devices; resolves their ids and access tokens. */
export async function provisionFleet(binary: string, dataDir: string, publicKeyFile: string, privateKeyPem: string, devices: number): Promise<FleetDevice[]> {
  const bin = await startAfterReboot({ binary, dataDir, args: ['--license-public-key', publicKeyFile] });
  try {
    await provision(bin, privateKeyPem);
    const http = await ConsoleHttp.signIn(bin.url, BENCH_ADMIN.username, BENCH_ADMIN.password);
    const product = await http.call(productRoutes.create, { body: { name: 'Bench-fleet-10k', deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT' } });
    const fleet: FleetDevice[] = [];
    while (fleet.length < devices) {
      const batch = await http.call(deviceImportRoutes.batch, {
        body: { deviceProfileId: product.id, count: Math.min(BATCH_MAX, devices - fleet.length), aliasPrefix: 'fleet-' },
      });
      fleet.push(...batch.items.map((d) => ({ id: d.id, token: d.token })));
    }
    return fleet;
  } finally {
    await bin.kill();
  }
}

/** The gateway on an existing, provisioned data dir, signed in. */
export async function restartGateway(binary: string, dataDir: string, publicKeyFile: string, env?: NodeJS.ProcessEnv): Promise<ScaleGateway> {
  const bin = await startBinary({ binary, dataDir, args: ['--license-public-key', publicKeyFile], ...(env ? { env } : {}) });
  try {
    const http = await ConsoleHttp.signIn(bin.url, BENCH_ADMIN.username, BENCH_ADMIN.password);
    return { bin, http, mqttPort: await mqttPortOf(bin) };
  } catch (err) {
    await bin.kill();
    throw err;
  }
}

/** Between calls of the device list; the workbench counts are asked for every SUMMARY_EVERY-th time. */
const LIST_EVERY_MS = 200;
const SUMMARY_EVERY = 10;

/**
 * A console open during the storm, until `until` settles: the device list five times a second (a
 * user paging and filtering fast) and the workbench counts every 2 s (its refresh); their round trips.
 */
async function consoleDuring<T>(http: ConsoleHttp, until: Promise<T>): Promise<{ value: T; listMs: number[]; summaryMs: number[] }> {
  let done = false;
  const finished = until.finally(() => (done = true));
  const listMs: number[] = [];
  const summaryMs: number[] = [];
  const poll = (async () => {
    for (let i = 0; !done; i++) {
      let started = performance.now();
      await http.call(deviceRoutes.list, { query: { pageSize: 10, deviceState: i % 2 === 0 ? 'ONLINE' : undefined } });
      listMs.push(performance.now() - started);
      if (i % SUMMARY_EVERY === 0) {
        started = performance.now();
        await http.call(workbenchRoutes.summary);
        summaryMs.push(performance.now() - started);
      }
      await sleep(LIST_EVERY_MS);
    }
  })();
  const value = await finished;
  await poll;
  return { value, listMs, summaryMs };
}

function stormNote(r: ConnectReport, listMs: number[], summaryMs: number[]): string {
  return (
    `${count(r.connected)}/${count(r.devices)} CONNACK 0, ${r.refused} refused, ${r.timedOut} timed out (no CONNACK in ${CONNACK_TIMEOUT_MS / 1000} s), ${r.failed} failed; ` +
    `CONNACK p50 ${r.connackP50Ms.toFixed(0)} ms, p95 ${r.connackP95Ms.toFixed(0)} ms, max ${r.connackMaxMs.toFixed(0)} ms; ` +
    `during it ${listMs.length} device-list calls (p50 ${percentile(listMs, 50).toFixed(0)} ms, max ${Math.max(...listMs).toFixed(0)} ms) and ` +
    `${summaryMs.length} workbench summaries (p95 ${percentile(summaryMs, 95).toFixed(0)} ms)`
  );
}

export async function scaleRows(binary: string, devices = SCALE_DEVICES): Promise<RowSpec[]> {
  // Node raises the soft limit to the hard one at start: the children inherit this one.
  const limit = openFileLimit() ?? Number.POSITIVE_INFINITY;
  if (limit < devices + FD_HEADROOM) {
    throw new Error(`bench: ${count(devices)} devices need ulimit -n ≥ ${devices + FD_HEADROOM} (it is ${limit}); raise it (ulimit -n 20000) in the shell that runs npm run bench`);
  }
  const keys = benchLicenceKeys();
  const dataDir = join(keys.dir, 'data');
  const fleet = Fleet.start();
  let gw: ScaleGateway | null = null;
  try {
    const tokens = (await provisionFleet(binary, dataDir, keys.publicKeyFile, keys.privateKeyPem, devices)).map((d) => d.token);

    // ---- steady state: every device connected, 1 msg/s each
    gw = await restartGateway(binary, dataDir, keys.publicKeyFile);
    const pid = gw.bin.pid;
    const before = rssOf(pid);
    const first = await fleet.connect(gw.mqttPort, tokens, { timeoutMs: CONNACK_TIMEOUT_MS, subscribe: true });
    await fleet.publish(RATE);
    const s0 = await fleet.stats();
    const cpu0 = cpuMs(pid);
    const { peak, after, seconds } = await watchRss(pid, RUN_MS);
    const s1 = await fleet.stats();
    const perSecond = (s1.acknowledged - s0.acknowledged) / seconds;
    const cpuShare = (cpuMs(pid) - cpu0) / 10 / seconds;
    await fleet.pause();

    // ---- the storm: a restart on the same data dir, every device back at once
    await gw.bin.kill();
    gw = null;
    await fleet.disconnect();
    gw = await restartGateway(binary, dataDir, keys.publicKeyFile);
    const stormStarted = performance.now();
    const storm = await consoleDuring(gw.http, fleet.connect(gw.mqttPort, tokens, { timeoutMs: CONNACK_TIMEOUT_MS, subscribe: true }));
    const stormWallMs = performance.now() - stormStarted;
    const r = storm.value;
    const listP95 = percentile(storm.listMs, 95);

    return [
      {
        id: 'rss10000DevicesMb',
        figure: `RSS with ${count(devices)} connected devices at ${RATE} msg/s each`,
        value: after.rss / MB,
        unit: 'MB',
        budget: 300,
        note:
          `VmRSS of the binary after ${seconds.toFixed(0)} s (raw MQTT 3.1.1 sockets from one process, QoS 1, RPC subscription; ` +
          `${count(s1.connected)}/${count(devices)} connected, ${count(perSecond)} msg/s acknowledged, ${s1.dropped} dropped, gateway CPU ${cpuShare.toFixed(0)} % of a core); ` +
          `anon ${mb(after.anon)} MB + file-backed ${mb(after.file)} MB; peak ${mb(peak.rss)} MB; ${mb(before.rss)} MB before the devices; ` +
          `first connection of all at once: ${(first.allConnectedMs / 1000).toFixed(1)} s; the client process used ${s1.clientRssMb.toFixed(0)} MB`,
        detail: {
          rssBeforeMb: before.rss / MB,
          peakMb: peak.rss / MB,
          anonMb: after.anon / MB,
          fileMb: after.file / MB,
          connected: s1.connected,
          messagesPerSecond: perSecond,
          gatewayCpuPct: cpuShare,
          clientRssMb: s1.clientRssMb,
        },
      },
      {
        id: 'stormConnectedS',
        figure: `reconnect storm: ${count(devices)} devices connected within (after a restart)`,
        value: r.allConnectedMs / 1000,
        unit: 's',
        budget: 30,
        note: stormNote(r, storm.listMs, storm.summaryMs),
        detail: { ...r, stormWallMs },
      },
      {
        id: 'stormConnackTimeouts',
        figure: 'reconnect storm: CONNACK timeouts',
        value: r.timedOut + r.refused + r.failed,
        unit: 'count',
        budget: 0,
        note: `devices with no CONNACK 0 within ${CONNACK_TIMEOUT_MS / 1000} s: ${r.timedOut} timed out, ${r.refused} refused, ${r.failed} closed before it`,
      },
      {
        id: 'stormDeviceListP95Ms',
        figure: 'reconnect storm: device list p95 during the storm',
        value: listP95,
        unit: 'ms',
        budget: 50,
        note: `${storm.listMs.length} GET /api/yt/device (pageSize 10, every other one filtered ONLINE) ${LIST_EVERY_MS} ms apart, a workbench summary every ${SUMMARY_EVERY}th, while the ${count(devices)} devices connected`,
      },
    ];
  } finally {
    await fleet.stop();
    await gw?.bin.kill();
    keys.remove();
  }
}
