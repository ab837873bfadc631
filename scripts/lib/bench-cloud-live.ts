/**
 * Live forwarding (issue budget: forwarding to a connected cloud adds ≤ 10 % to the local ingest
 * cost at 1,000 msg/s). Two provisioned gateways of the same binary in one run, each with the same
 * 100 devices sending 10 msg/s apiece (1,000 msg/s, QoS 1): one with its cloud set to a local
 * mosquitto and connected, one without a cloud. A subscriber on the broker checks that the values
 * really reached the cloud.
 *
 * The figure is each gateway's CPU time per 1,000 acknowledged messages over the whole run, from
 * before the first round to MOVE_SETTLE_MS after the last, and the row is how much more the
 * forwarding one spends. Both gateways are driven at the same time, round after round, so what
 * the machine does meanwhile falls on both alike: taken in turn (A B B A …), one side's rounds
 * moved by ±20 % and a round after a pause cost ~12 ms per 1,000 more than one right after the
 * side's own. The telemetry writer moves staged values into history blocks every 32,768 values
 * (server/modules/telemetry/telemetry-writer.ts `moveRows`) or each minute, a burst of CPU that
 * sums over the rounds alone caught or missed at random; after the settle every value sent has
 * been moved, on both sides alike. A round sends about one move's worth (17 s at 1,000 msg/s).
 * The note gives the rounds alone as well, the median of the rounds' ratios and the main thread
 * apart from the other threads (V8's GC helpers) (docs/PERFORMANCE-FINDINGS.md).
 */
import { connectAsync } from 'mqtt';
import { cloudRoutes } from '../../server/contract/cloud.ts';
import { cloudLinkRoutes, type EdgeState } from '../../server/contract/cloud-link.ts';
import { startProvisionedGateway, type BenchGateway } from './bench-gateway.ts';
import { closeAll, connectPublishers, drive } from './bench-load.ts';
import { count, cpuMs, mainThreadCpuMs, median, sleep } from './bench-measure.ts';
import type { RowSpec } from './bench-row.ts';
import { payloads } from './bench-telemetry.ts';
import type { Mosquitto } from './mosquitto.ts';
import { ensureDevices, ensureSimulatorProduct } from './simulator.ts';

const DEVICES = 100;
const RATE_PER_DEVICE = 10;
const ROUNDS = 6;
const WARMUP_MS = 2000;
/** With the warm-up, a little more than one staging move's worth of messages (see above). */
const DURATION_MS = 15_000;
const WINDOW = 8;
/** The telemetry writer moves what is staged at least each minute (telemetry-writer.ts `moveMs`): after this, every value of the run has been moved. */
const MOVE_SETTLE_MS = 62_000;

interface Side {
  gw: BenchGateway;
  clients: Awaited<ReturnType<typeof connectPublishers>>;
  cpuPer1k: number[];
  cpuMs: number;
  mainMs: number;
  acked: number;
  /** CPU over the whole run, pauses and settle included. */
  spanMs: number;
}

async function prepare(binary: string, name: string): Promise<Side> {
  const gw = await startProvisionedGateway(binary);
  const product = await ensureSimulatorProduct(gw.http, name);
  const devices = await ensureDevices(gw.http, product.id, DEVICES);
  const clients = await connectPublishers(gw.mqttUrl, devices.map((d) => ({ username: d.token, clientId: `bench-live-${d.id}` })));
  return { gw, clients, cpuPer1k: [], cpuMs: 0, mainMs: 0, acked: 0, spanMs: 0 };
}

async function round(side: Side): Promise<void> {
  const pid = side.gw.bin.pid;
  const cpu0 = cpuMs(pid);
  const main0 = mainThreadCpuMs(pid);
  const result = await drive(side.clients, { window: WINDOW, warmupMs: WARMUP_MS, durationMs: DURATION_MS, ratePerPublisher: RATE_PER_DEVICE, payload: payloads(DEVICES) });
  const used = cpuMs(pid) - cpu0;
  side.mainMs += mainThreadCpuMs(pid) - main0;
  side.cpuPer1k.push((used / result.ackedAll) * 1000);
  side.cpuMs += used;
  side.acked += result.ackedAll;
}

/** Values arriving on the cloud's gateway telemetry topic. */
async function cloudCounter(broker: Mosquitto): Promise<{ seen: () => number; stop: () => Promise<void> }> {
  const client = await connectAsync(broker.url, { clientId: 'bench-cloud-live', reconnectPeriod: 0 });
  await client.subscribeAsync('v1/gateway/telemetry', { qos: 0 });
  let seen = 0;
  client.on('message', (_topic, payload) => {
    const body = JSON.parse(payload.toString()) as Record<string, unknown[]>;
    for (const points of Object.values(body)) seen += points.length;
  });
  return { seen: () => seen, stop: () => client.endAsync() };
}

export async function liveForwardingRows(binary: string, broker: Mosquitto): Promise<RowSpec[]> {
  const sides: Side[] = [];
  const counter = await cloudCounter(broker);
  try {
    const forwarding = await prepare(binary, 'Cloud_live');
    sides.push(forwarding);
    const local = await prepare(binary, 'Cloud_none');
    sides.push(local);
    await forwarding.gw.http.call(cloudRoutes.save, { body: { platformAddress: '127.0.0.1', platformPort: broker.port, platformKey: 'bench-live', platformSecret: '' } });
    for (let i = 0; i < 100; i++) {
      const state = (await forwarding.gw.http.call(cloudLinkRoutes.state, {})) as EdgeState;
      if (state.status === 'CONNECTED' && state.backlog.messages === 0) break;
      await sleep(100);
    }
    for (const side of sides) side.spanMs = -cpuMs(side.gw.bin.pid);
    // Both sides at once: what the machine does meanwhile (other processes, the page cache's
    // writeback) falls on both alike, where rounds taken in turn moved one side by ±20 %.
    for (let r = 0; r < ROUNDS; r++) await Promise.all([round(forwarding), round(local)]);
    // The last values of the forwarding side may still be on their way.
    for (let waited = 0; waited < 10_000 && counter.seen() < forwarding.acked; waited += 200) await sleep(200);
    await sleep(MOVE_SETTLE_MS);
    for (const side of sides) side.spanMs += cpuMs(side.gw.bin.pid);
    const perThousand = (side: Side): number => (side.spanMs / side.acked) * 1000;
    const roundsPer1k = (side: Side): number => (side.cpuMs / side.acked) * 1000;
    const withCloud = perThousand(forwarding);
    const without = perThousand(local);
    const addedPct = (withCloud / without - 1) * 100;
    // Round r of one side and round r of the other ran at the same time.
    const pairPct = forwarding.cpuPer1k.map((w, r) => (w / local.cpuPer1k[r]! - 1) * 100);
    const mainPer1k = (side: Side): number => (side.mainMs / side.acked) * 1000;
    const rounds = (xs: number[]): string => xs.map((x) => x.toFixed(0)).join(', ');
    const signed = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;
    return [
      {
        id: 'cloudLiveForwardingAddedPct',
        figure: 'live forwarding to a connected cloud: added gateway CPU per message at 1,000 msg/s',
        value: Math.round(addedPct * 10) / 10,
        unit: '%',
        budget: 10,
        better: 'lower',
        note:
          `${DEVICES} devices × ${RATE_PER_DEVICE} msg/s, QoS 1, two gateways of this binary driven at the same time (${ROUNDS} rounds of ${(WARMUP_MS + DURATION_MS) / 1000} s, about one staging move's worth; ` +
          `CPU over the whole run, the pauses and ${MOVE_SETTLE_MS / 1000} s after the last round included so every staging move counts): ` +
          `with mosquitto as the cloud ${withCloud.toFixed(1)} ms CPU per 1,000 msgs, without a cloud ${without.toFixed(1)} ms; ` +
          `the rounds alone ${roundsPer1k(forwarding).toFixed(1)} (${rounds(forwarding.cpuPer1k)}) vs ${roundsPer1k(local).toFixed(1)} (${rounds(local.cpuPer1k)}), ` +
          `${signed((roundsPer1k(forwarding) / roundsPer1k(local)) * 100 - 100)} %; ` +
          `of the rounds the main thread ${mainPer1k(forwarding).toFixed(1)} vs ${mainPer1k(local).toFixed(1)} ms, other threads ${(roundsPer1k(forwarding) - mainPer1k(forwarding)).toFixed(1)} vs ${(roundsPer1k(local) - mainPer1k(local)).toFixed(1)}; ` +
          `median of the ${ROUNDS} pairs ${signed(median(pairPct))} % (pairs ${pairPct.map((x) => x.toFixed(0)).join(', ')}); ` +
          `the cloud received ${count(counter.seen())} of ${count(forwarding.acked)} values`,
        detail: {
          withCloudCpuMsPer1k: withCloud,
          withoutCloudCpuMsPer1k: without,
          withCloudRoundsOnlyMsPer1k: roundsPer1k(forwarding),
          withoutCloudRoundsOnlyMsPer1k: roundsPer1k(local),
          withCloudMedianRound: median(forwarding.cpuPer1k),
          withoutCloudMedianRound: median(local.cpuPer1k),
          withCloudMainThreadMsPer1k: mainPer1k(forwarding),
          withoutCloudMainThreadMsPer1k: mainPer1k(local),
          medianPairAddedPct: median(pairPct),
          cloudReceived: counter.seen(),
          forwardedAcked: forwarding.acked,
        },
      },
    ];
  } finally {
    await counter.stop();
    for (const side of sides) {
      await closeAll(side.clients);
      await side.gw.stop();
    }
  }
}
