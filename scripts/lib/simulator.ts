/**
 * The device simulator (`npm run simulate`, the demo, e2e tests and the bench drive it in-process):
 * signs in over HTTP, ensures the simulator product with its published thing model and N devices
 * (batch generation), connects one real MQTT client per device and publishes telemetry at R
 * messages per second per device until stopped.
 *
 * @example
 * ```ts
 * const sim = await startSimulator({ url: 'http://127.0.0.1:8080', mqttUrl: 'mqtt://127.0.0.1:1883',
 *   username: 'admin', password, devices: 3, rate: 1 });
 * console.log(sim.devices.map((d) => d.identity.name), sim.stats());
 * await sim.stop();
 * ```
 */
import { credentialsRoutes } from '../../server/contract/credentials.ts';
import { BATCH_MAX, deviceImportRoutes } from '../../server/contract/device-import.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { MAX_PAGE_SIZE } from '../../server/contract/common.ts';
import { productRoutes, type Product } from '../../server/contract/product.ts';
import { thingModelRoutes, type ThingModelItemBody } from '../../server/contract/thing-model.ts';
import { ConsoleHttp } from './console-http.ts';
import { emptyCounters, SimulatedDevice, type DeviceCounters, type DeviceIdentity } from './simulated-device.ts';
import { simulatorTsl } from './simulator-model.ts';

export const DEFAULT_PRODUCT_NAME = 'Simulator';
/** Connections opened at the same time: a thousand at once would only make the broker queue them. */
const CONNECT_CONCURRENCY = 50;
/** Publishing runs on this beat at most; faster rates send several messages per beat. */
const MIN_TICK_MS = 10;

export interface SimulatorOptions {
  /** The console, e.g. http://127.0.0.1:8080. */
  url: string;
  /** The device MQTT broker, e.g. mqtt://127.0.0.1:1883. */
  mqttUrl: string;
  username: string;
  password: string;
  devices: number;
  /** Telemetry messages per second per device (fractions allowed: 0.2 is one every 5 s). */
  rate: number;
  product?: string;
  qos?: 0 | 1;
  /** Called every `statusIntervalMs` (default 5 s) with the counters. */
  onStatus?: (stats: SimulatorStats) => void;
  statusIntervalMs?: number;
  log?: (line: string) => void;
  random?: () => number;
}

export interface SimulatorStats extends DeviceCounters {
  devices: number;
  connected: number;
  /** Telemetry messages per second since the previous status. */
  ratePerSecond: number;
}

export interface RunningSimulator {
  product: Product;
  devices: SimulatedDevice[];
  stats(): SimulatorStats;
  stop(): Promise<void>;
}

/** The product named `name`, created with the simulator's thing model if missing; the model's items added and published when absent. */
export async function ensureSimulatorProduct(http: ConsoleHttp, name: string): Promise<Product> {
  const page = await http.call(productRoutes.list, { query: { name, pageSize: MAX_PAGE_SIZE } });
  let product = page.items.find((p) => p.name === name);
  product ??= await http.call(productRoutes.create, {
    body: { name, deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT', description: 'Devices of npm run simulate' },
  });
  const deviceProfileId = product.id;
  const items = await http.call(thingModelRoutes.list, { params: { deviceProfileId }, query: { pageSize: MAX_PAGE_SIZE } });
  const have = new Set(items.items.map((i) => i.identifier));
  const groups = [
    ['properties', simulatorTsl.properties],
    ['services', simulatorTsl.services],
    ['events', simulatorTsl.events],
  ] as const;
  for (const [functionType, entries] of groups) {
    for (const entry of entries) {
      if (have.has(entry.identifier)) continue;
      // Each item on its own: other items someone added to this product stay as they are.
      await http.call(thingModelRoutes.create, { body: { ...entry, deviceProfileId, functionType } as ThingModelItemBody });
    }
  }
  const status = await http.call(thingModelRoutes.status, { params: { deviceProfileId } });
  if (status.hasUnpublishedChanges || status.publishedVersion === null) {
    await http.call(thingModelRoutes.publish, { params: { deviceProfileId } });
  }
  return http.call(productRoutes.get, { params: { id: deviceProfileId } });
}

async function inBatches<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

/** `count` devices of the product with their access tokens: existing ones first, the rest generated. */
export async function ensureDevices(http: ConsoleHttp, productId: string, count: number): Promise<DeviceIdentity[]> {
  const existing: { id: string; name: string }[] = [];
  for (let page = 1; existing.length < count; page++) {
    const found = await http.call(deviceRoutes.list, {
      query: { deviceProfileId: productId, page, pageSize: MAX_PAGE_SIZE, sortField: 'createdTime', sortOrder: 'ascend' },
    });
    existing.push(...found.items.map((d) => ({ id: d.id, name: d.name })));
    if (found.items.length < MAX_PAGE_SIZE) break;
  }
  const kept = existing.slice(0, count);
  const identities = await inBatches(kept, 20, async (d) => {
    const credentials = await http.call(credentialsRoutes.get, { params: { id: d.id } });
    return { ...d, token: credentials.credentialsId };
  });
  for (let missing = count - identities.length; missing > 0; missing = count - identities.length) {
    const batch = await http.call(deviceImportRoutes.batch, {
      body: { deviceProfileId: productId, count: Math.min(missing, BATCH_MAX), aliasPrefix: 'sim-' },
    });
    identities.push(...batch.items.map((d) => ({ id: d.id, name: d.name, token: d.token })));
  }
  return identities;
}

/** Runs `tick` on every device `rate` times a second, spread over time, until the returned stop. */
function schedule(devices: readonly SimulatedDevice[], rate: number): () => void {
  const tickMs = Math.max(MIN_TICK_MS, Math.min(1000, 1000 / rate));
  // Devices start at random phases, so N devices at 1 msg/s do not all publish in the same millisecond.
  const owed = devices.map(() => Math.random());
  let last = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    const due = (rate * (now - last)) / 1000;
    last = now;
    devices.forEach((device, i) => {
      owed[i]! += due;
      for (; owed[i]! >= 1; owed[i]! -= 1) device.tick();
    });
  }, tickMs);
  return () => clearInterval(timer);
}

export async function startSimulator(opts: SimulatorOptions): Promise<RunningSimulator> {
  if (!Number.isInteger(opts.devices) || opts.devices < 1) throw new Error('devices must be a whole number of at least 1');
  if (!(opts.rate > 0)) throw new Error('rate must be above 0');
  const log = opts.log ?? (() => undefined);
  const http = await ConsoleHttp.signIn(opts.url, opts.username, opts.password);
  const product = await ensureSimulatorProduct(http, opts.product ?? DEFAULT_PRODUCT_NAME);
  const identities = await ensureDevices(http, product.id, opts.devices);
  const counters = emptyCounters();
  const devices = identities.map(
    (identity) => new SimulatedDevice(identity, { mqttUrl: opts.mqttUrl, qos: opts.qos, counters, random: opts.random, log }),
  );
  try {
    await inBatches(devices, CONNECT_CONCURRENCY, (d) => d.connect());
  } catch (err) {
    await Promise.all(devices.map((d) => d.stop()));
    throw err;
  }
  const stopTicks = schedule(devices, opts.rate);

  let lastPublished = 0;
  let lastAt = Date.now();
  const stats = (): SimulatorStats => {
    const now = Date.now();
    const ratePerSecond = now > lastAt ? ((counters.published - lastPublished) * 1000) / (now - lastAt) : 0;
    return { ...counters, devices: devices.length, connected: devices.filter((d) => d.connected).length, ratePerSecond };
  };
  const statusTimer = opts.onStatus
    ? setInterval(() => {
        const s = stats();
        lastPublished = s.published;
        lastAt = Date.now();
        opts.onStatus?.(s);
      }, opts.statusIntervalMs ?? 5000)
    : null;

  let stopped: Promise<void> | null = null;
  return {
    product,
    devices,
    stats,
    stop() {
      stopped ??= (async () => {
        stopTicks();
        if (statusTimer) clearInterval(statusTimer);
        await Promise.all(devices.map((d) => d.stop()));
      })();
      return stopped;
    },
  };
}

/** One status line: `10/10 connected · 1,234 sent (50.0/s) · 1,230 acked · 2 events · 1 rpc · 0 errors`. */
export function statusLine(s: SimulatorStats): string {
  const n = (v: number): string => v.toLocaleString('en-US');
  return [
    `${s.connected}/${s.devices} connected`,
    `${n(s.published)} sent (${s.ratePerSecond.toFixed(1)}/s)`,
    `${n(s.acknowledged)} acked`,
    `${n(s.events)} events`,
    `${n(s.rpcAnswered)} rpc answered`,
    `${n(s.errors)} errors`,
  ].join(' · ');
}
