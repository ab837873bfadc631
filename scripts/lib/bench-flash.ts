/**
 * Flash wear (issue 26): bytes the gateway writes to its storage per acknowledged message at a
 * real fleet's pace, and at idle, read from the built binary's /proc/<pid>/io `write_bytes`
 * (everything the process sent towards the disk: WAL, checkpoints, the history worker, logs), with
 * the PUBACK round trips the commit policy costs. Each commit policy in `FLASH_SETTINGS` runs on a
 * gateway of its own:
 * - a fleet: 100 devices × 1 message/s, QoS 1, 2 values, spread phases;
 * - 1,000 msg/s paced: the same 100 devices × 10 messages/s;
 * - a lone device publishing 2 messages/s (the other 99 connected and silent): its PUBACK p50;
 * - idle (default policy only): the 100 devices connected and silent for `FLASH_IDLE_S` seconds
 *   (180 unless set), extrapolated to an hour.
 * Bytes are machine-independent; the timings are not (the load average is in every row).
 */
import type { MqttClient } from 'mqtt';
import type { RowSpec } from './bench-row.ts';
import { startProvisionedGateway, type BenchGateway } from './bench-gateway.ts';
import { closeAll, connectPublishers, drive, type DriveResult } from './bench-load.ts';
import { count, percentile, sleep, writeBytesOf } from './bench-measure.ts';
import { payloads } from './bench-telemetry.ts';
import { ensureDevices, ensureSimulatorProduct } from './simulator.ts';

const DEVICES = 100;
const FLEET_WARMUP_MS = 5000;
// Two moves into blocks (every 60 s, telemetry-writer.ts `moveMs`) fall in the run: their bytes count.
const FLEET_MS = 125_000;
const FAST_RATE = 10;
const FAST_MS = 15_000;
const LONE_RATE = 2;
const LONE_MS = 20_000;
const IDLE_SETTLE_MS = 10_000;

interface Setting {
  /** Row id suffix and label. */
  name: string;
  args: string[];
  /** Whether the idle phase runs under it (it takes minutes). */
  idle: boolean;
}

/** The default policy, committing every batch at once (what the gateway did before issue 26), and a longer interval. */
export const FLASH_SETTINGS: Setting[] = [
  { name: 'default', args: [], idle: true },
  { name: 'immediate', args: ['--commit-interval-ms', '0'], idle: false },
  { name: 'interval1000', args: ['--commit-interval-ms', '1000'], idle: false },
];

function idleSeconds(): number {
  const s = Number(process.env.FLASH_IDLE_S ?? 180);
  return Number.isFinite(s) && s > 0 ? s : 180;
}

interface Paced {
  result: DriveResult;
  bytesPerMsg: number;
}

/** `rate` messages a second from each client; bytes written over the whole run ÷ its PUBACKs. */
async function paced(pid: number, clients: readonly MqttClient[], rate: number, warmupMs: number, durationMs: number): Promise<Paced> {
  const written = writeBytesOf(pid);
  const result = await drive(clients, { window: 32, warmupMs, durationMs, ratePerPublisher: rate, payload: payloads(clients.length), pubackTimes: true });
  return { result, bytesPerMsg: (writeBytesOf(pid) - written) / Math.max(1, result.ackedAll) };
}

function pubackNote(ms: readonly number[]): string {
  return `PUBACK p50 ${percentile(ms, 50).toFixed(1)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms (${count(ms.length)} messages)`;
}

async function idleBytesPerHour(gw: BenchGateway): Promise<number> {
  await sleep(IDLE_SETTLE_MS);
  const seconds = idleSeconds();
  const written = writeBytesOf(gw.bin.pid);
  await sleep(seconds * 1000);
  return ((writeBytesOf(gw.bin.pid) - written) / seconds) * 3600;
}

async function settingRows(binary: string, setting: Setting): Promise<RowSpec[]> {
  const gw = await startProvisionedGateway(binary, undefined, setting.args);
  let clients: MqttClient[] = [];
  try {
    const product = await ensureSimulatorProduct(gw.http, 'Bench-flash');
    const devices = await ensureDevices(gw.http, product.id, DEVICES);
    clients = await connectPublishers(gw.mqttUrl, devices.map((d) => ({ username: d.token, clientId: `flash-${d.id}` })));
    const pid = gw.bin.pid;
    const idle = setting.idle ? await idleBytesPerHour(gw) : null;
    const lone = await paced(pid, clients.slice(0, 1), LONE_RATE, 1000, LONE_MS);
    const fleet = await paced(pid, clients, 1, FLEET_WARMUP_MS, FLEET_MS);
    const fast = await paced(pid, clients, FAST_RATE, 2000, FAST_MS);
    const label = setting.args.length ? setting.args.join(' ') : 'default flags';
    const rows: RowSpec[] = [
      {
        id: `flashFleetBytesPerMsg_${setting.name}`,
        figure: `written per message, ${DEVICES} devices × 1 msg/s (${label})`,
        value: fleet.bytesPerMsg,
        unit: 'B',
        budget: setting.name === 'default' ? 200 : null,
        note: `QoS 1, 2 values, ${FLEET_MS / 1000} s after ${FLEET_WARMUP_MS / 1000} s warm-up, write_bytes over the run ÷ ${count(fleet.result.ackedAll)} PUBACKs (${count((fleet.bytesPerMsg * DEVICES * 86_400) / 1e9)} GB/day); ${pubackNote(fleet.result.pubackMs)}`,
        detail: { p50: percentile(fleet.result.pubackMs, 50), p99: percentile(fleet.result.pubackMs, 99), acked: fleet.result.ackedAll },
      },
      {
        id: `flashFleetPubackP99Ms_${setting.name}`,
        figure: `PUBACK p99, ${DEVICES} devices × 1 msg/s (${label})`,
        value: percentile(fleet.result.pubackMs, 99),
        unit: 'ms',
        budget: setting.name === 'default' ? 500 : null,
        note: `the run above; ${pubackNote(fleet.result.pubackMs)}`,
      },
      {
        id: `flashPaced1000BytesPerMsg_${setting.name}`,
        figure: `written per message, ${count(DEVICES * FAST_RATE)} msg/s paced (${label})`,
        value: fast.bytesPerMsg,
        unit: 'B',
        budget: setting.name === 'default' ? 150 : null,
        note: `${DEVICES} devices × ${FAST_RATE} msg/s for ${FAST_MS / 1000} s (reached ${count(fast.result.perSecond)} msg/s); ${pubackNote(fast.result.pubackMs)}`,
      },
      {
        id: `flashLonePubackP50Ms_${setting.name}`,
        figure: `PUBACK p50, a lone device at ${LONE_RATE} msg/s (${label})`,
        value: percentile(lone.result.pubackMs, 50),
        unit: 'ms',
        budget: setting.name === 'default' ? 5 : null,
        note: `one connection publishes ${LONE_RATE} msg/s for ${LONE_MS / 1000} s while ${DEVICES - 1} stay connected and silent; ${pubackNote(lone.result.pubackMs)}; ${count(lone.bytesPerMsg)} B written per message`,
        detail: { bytesPerMsg: lone.bytesPerMsg },
      },
    ];
    if (idle !== null) {
      rows.push({
        id: 'flashIdleBytesPerHour',
        figure: `written per hour at idle, ${DEVICES} devices connected and silent`,
        value: idle / (1024 * 1024),
        unit: 'MB',
        budget: 1,
        note: `write_bytes over ${idleSeconds()} s after ${IDLE_SETTLE_MS / 1000} s of rest, × 3,600 ÷ seconds (${count(idle)} B/h)`,
      });
    }
    return rows;
  } finally {
    await closeAll(clients);
    await gw.stop();
  }
}

export async function flashRows(binary: string, settings: readonly Setting[] = FLASH_SETTINGS): Promise<RowSpec[]> {
  const rows: RowSpec[] = [];
  for (const s of settings) rows.push(...(await settingRows(binary, s)));
  return rows;
}
