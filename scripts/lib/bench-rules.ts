/**
 * The rule engine's figures (group `rules`), on the built binary over real sockets on loopback:
 * - telemetry throughput of 20 MQTT QoS 1 devices with 1,000 enabled scenes on the same product
 *   (990 on another key or on devices that do not publish, 10 on the bench key with thresholds
 *   that never fire) against none (no scenes yet, then all switched off), as a percentage: the
 *   index by (product, key, device) should keep it at 90 % or more;
 * - RSS the 1,000 scenes add (budget 20 MB, 20 KB a scene);
 * - PUBACK of a threshold-crossing message → its ALARM_DATA update on a websocket, p99, while the
 *   other devices publish 1,000 msg/s;
 * - the engine's own cost per stored message with the same 1,000 scenes, in this process (no
 *   sockets, no SQLite): what the throughput row's difference can be laid at the engine's door.
 */
import { once } from 'node:events';
import WebSocket from 'ws';
import type { MqttClient } from 'mqtt';
import { deviceTopics } from '../../server/contract/device-api.ts';
import type { AlarmDataUpdate } from '../../server/contract/realtime.ts';
import { sceneLinkageRoutes, type Scene, type SceneCreateBody } from '../../server/contract/scene-linkage.ts';
import { EventBus } from '../../server/lib/event-bus.ts';
import { RuleEngine, type RuleEngineDeps } from '../../server/modules/rule-engine/rule-engine.ts';
import type { RowSpec } from './bench-row.ts';
import { startProvisionedGateway } from './bench-gateway.ts';
import { closeAll, connectPublishers, drive } from './bench-load.ts';
import { count, mb, MB, percentile, rssOf, sleep } from './bench-measure.ts';
import { ensureDevices, ensureSimulatorProduct } from './simulator.ts';

const PUBLISHERS = 20;
/** Devices that never publish: 990 scenes name them or a key nobody sends. */
export const IDLE_DEVICES = 10;
export const SCENES = 1000;
const SCENES_ON_KEY = 10;
const WINDOW = 32;
const WARMUP_MS = 2000;
const DURATION_MS = 8000;
const PACED_TOTAL_RATE = 1000;
const CROSSINGS = 200;

/** Temperatures 20.0–29.9 °C: no bench scene's threshold (100 °C and up) is ever crossed. */
function payload(_i: number, seq: number): string {
  return JSON.stringify({ temperature: 20 + (seq % 100) / 10, humidity: 50 });
}

/** A MAJOR MSG_NOTIFY scene of one SIMPLE `key > threshold` trigger (on every device of the product when `deviceIds` is empty). */
export function scene(name: string, productId: string, key: string, deviceIds: string[], threshold: number): SceneCreateBody {
  return {
    name,
    enabled: true,
    triggers: [
      {
        type: 'DEVICE_TRIGGER',
        deviceTriggerType: 'TIME_SERIES',
        deviceProfileId: productId,
        deviceIds,
        key,
        operation: 'GREATER',
        valueType: 'NUMERIC',
        value: threshold,
        conditionType: 'SIMPLE',
      },
    ],
    conditions: [],
    actions: [{ type: 'MSG_NOTIFY', severity: 'MAJOR', alarmType: 'bench' }],
    clearRules: [null],
  };
}

/** PUBACK → ALARM_DATA: `probe` alternates a cool and a hot value; each hot one fires the scene again (count + 1). */
async function crossingLatencies(wsUrl: string, token: string, probe: MqttClient): Promise<number[]> {
  const socket = new WebSocket(`${wsUrl}?token=${encodeURIComponent(token)}`);
  await once(socket, 'open');
  const waiting = new Map<number, (at: number) => void>();
  socket.on('message', (raw: Buffer) => {
    const at = performance.now();
    const update = JSON.parse(raw.toString('utf8')) as AlarmDataUpdate;
    for (const alarm of update.update ?? []) waiting.get(alarm.count)?.(at);
  });
  socket.send(JSON.stringify({ cmds: [{ type: 'ALARM_DATA', cmdId: 1, query: { pageLink: { page: 0, pageSize: 1, typeList: ['crossing'] } } }] }));
  await once(socket, 'message');
  const latencies: number[] = [];
  try {
    for (let n = 1; n <= CROSSINGS; n++) {
      await probe.publishAsync(deviceTopics.telemetry, JSON.stringify({ temperature: 20 }), { qos: 1 });
      const arrived = new Promise<number>((resolve) => waiting.set(n, resolve));
      await probe.publishAsync(deviceTopics.telemetry, JSON.stringify({ temperature: 110 }), { qos: 1 });
      const acked = performance.now();
      const at = await Promise.race([arrived, sleep(5000).then(() => Number.NaN)]);
      waiting.delete(n);
      if (Number.isNaN(at)) throw new Error(`bench: no ALARM_DATA update for crossing ${n} within 5 s`);
      latencies.push(Math.max(0, at - acked));
    }
  } finally {
    socket.close();
  }
  return latencies;
}

/** The 1,000 bench scenes of product `productId`, idle devices `idle`, as `ruleRows` creates them. */
export function benchScenes(productId: string, idle: readonly string[]): SceneCreateBody[] {
  return Array.from({ length: SCENES }, (_, i) =>
    i < SCENES_ON_KEY
      ? scene(`bench_key_${i}`, productId, 'temperature', [], 100 + i)
      : i % 2
        ? scene(`bench_other_key_${i}`, productId, 'humidity', [idle[i % IDLE_DEVICES]!], 90)
        : scene(`bench_idle_${i}`, productId, 'temperature', [idle[i % IDLE_DEVICES]!], 50),
  );
}

const ENGINE_MESSAGES = 1_000_000;

/** µs per `telemetry.stored` of 2 values through the engine alone, with the bench scenes enabled. */
function engineMicros(): number {
  const bus = new EventBus();
  const idle = Array.from({ length: IDLE_DEVICES }, (_, i) => `idle-${i}`);
  const scenes: Scene[] = benchScenes('bench', idle).map((body, i) => ({
    ...body,
    id: `scene-${i}`,
    description: null,
    forCustomers: false,
    schedule: { scheduleType: 'ANY_TIME' },
    createdTime: 0,
    updatedTime: 0,
  }));
  const unused = (): never => {
    throw new Error('bench: the engine should not act: no threshold is crossed');
  };
  const deps = {
    bus,
    log: { error: unused, debug: unused },
    scenes: { forEachEnabledRule: (visit: (scene: Scene) => void) => scenes.forEach(visit), releaseCache: () => undefined, find: unused, log: unused },
    alarms: { search: () => ({ items: [], total: 0 }), raise: unused, clearRaisedBy: unused },
    notifications: { notify: unused },
    commands: { send: unused },
    devices: { get: unused, page: unused },
    latest: unused,
  } as unknown as RuleEngineDeps;
  const engine = new RuleEngine(deps);
  engine.start();
  const devices = Array.from({ length: PUBLISHERS }, (_, i) => `device-${i}`);
  const entries = [
    { ts: 1, key: 'temperature', value: 25 },
    { ts: 1, key: 'humidity', value: 50 },
  ];
  const once = (): number => {
    const t0 = performance.now();
    for (let i = 0; i < ENGINE_MESSAGES; i++) bus.emit('telemetry.stored', { deviceId: devices[i % PUBLISHERS]!, deviceProfileId: 'bench', entries });
    return ((performance.now() - t0) * 1000) / ENGINE_MESSAGES;
  };
  once(); // warm-up: the JIT
  const micros = Math.min(once(), once());
  engine.close();
  return micros;
}

export async function ruleRows(binary: string): Promise<RowSpec[]> {
  const engineCost = engineMicros();
  const gw = await startProvisionedGateway(binary);
  let clients: MqttClient[] = [];
  try {
    const product = await ensureSimulatorProduct(gw.http, 'Bench-rules');
    const devices = await ensureDevices(gw.http, product.id, PUBLISHERS + IDLE_DEVICES + 1);
    const publishing = devices.slice(0, PUBLISHERS);
    const idle = devices.slice(PUBLISHERS, PUBLISHERS + IDLE_DEVICES).map((d) => d.id);
    const probeDevice = devices[PUBLISHERS + IDLE_DEVICES]!;
    clients = await connectPublishers(gw.mqttUrl, publishing.map((d) => ({ username: d.token, clientId: `rules-${d.id}` })));
    const pid = gw.bin.pid;
    const run = () => drive(clients, { window: WINDOW, warmupMs: WARMUP_MS, durationMs: DURATION_MS, payload });

    // Runs alternate without and with the scenes (switched off and on again between them): the
    // database grows with every run, and a loaded machine drifts, so neither side gets only the
    // early or only the late runs. A first run on the empty database is faster than any later one
    // (measured: 30,900 against 19,300 msg/s): it only warms up and is not counted.
    await run();
    const withoutRuns = [await run()];
    await sleep(1000);
    const rssBefore = rssOf(pid);
    const ids: string[] = [];
    for (const body of benchScenes(product.id, idle)) ids.push((await gw.http.call(sceneLinkageRoutes.create, { body })).id);
    await sleep(1000);
    const rssAfter = rssOf(pid);
    const switchAll = async (enabled: boolean): Promise<void> => {
      for (const id of ids) await gw.http.call(sceneLinkageRoutes.setEnabled, { params: { id }, body: { enabled } });
    };
    const withRuns = [await run()];
    await switchAll(false);
    withoutRuns.push(await run());
    await switchAll(true);
    withRuns.push(await run());
    const perSecond = (runs: { perSecond: number }[]): number => runs.reduce((sum, r) => sum + r.perSecond, 0) / runs.length;
    const without = { perSecond: perSecond(withoutRuns) };
    const withScenes = { perSecond: perSecond(withRuns) };

    // The crossing scene on the probe device, then crossings under a paced background load.
    await gw.http.call(sceneLinkageRoutes.create, {
      body: { ...scene('bench_crossing', product.id, 'temperature', [probeDevice.id], 100), actions: [{ type: 'MSG_NOTIFY', severity: 'CRITICAL', alarmType: 'crossing' }] },
    });
    const [probe] = await connectPublishers(gw.mqttUrl, [{ username: probeDevice.token, clientId: `rules-probe-${probeDevice.id}` }]);
    clients.push(probe!);
    // The background load runs until the crossings are done, so every crossing meets it.
    const crossings = sleep(1000).then(() => crossingLatencies(gw.wsUrl, gw.http.accessToken ?? '', probe!));
    const paced = await drive(clients.slice(0, PUBLISHERS), {
      window: WINDOW,
      warmupMs: 1000,
      durationMs: 0,
      until: crossings,
      ratePerPublisher: PACED_TOTAL_RATE / PUBLISHERS,
      payload,
    });
    const latencies = await crossings;

    const ratio = (withScenes.perSecond / without.perSecond) * 100;
    const added = rssAfter.rss - rssBefore.rss;
    const shape = `${PUBLISHERS} MQTT QoS 1 devices, ≤ ${WINDOW} unacked each, ${WARMUP_MS / 1000} s warm-up then ${DURATION_MS / 1000} s`;
    return [
      {
        id: 'rulesThroughputPct',
        figure: `telemetry throughput with ${count(SCENES)} enabled scenes vs none`,
        value: ratio,
        unit: '%',
        budget: 90,
        better: 'higher',
        note: `${shape}, two runs each, alternating: ${count(withScenes.perSecond)} msg/s with ${count(SCENES)} scenes enabled (${SCENES - SCENES_ON_KEY} on another key or on devices that do not publish, ${SCENES_ON_KEY} on the published key, never crossed) against ${count(without.perSecond)} msg/s without (runs: ${withoutRuns.map((r) => count(r.perSecond)).join(', ')} without; ${withRuns.map((r) => count(r.perSecond)).join(', ')} with)`,
        detail: { without: without.perSecond, withScenes: withScenes.perSecond },
      },
      {
        id: 'rulesEngineCorePct',
        figure: `rule engine's own CPU with ${count(SCENES)} scenes, at the throughput without them (% of a core)`,
        value: (engineCost * without.perSecond) / 10_000,
        unit: '%',
        note: `${count(ENGINE_MESSAGES)} telemetry.stored events of 2 values (${PUBLISHERS} devices) through the engine alone, in the bench process, with the scenes above: ${engineCost.toFixed(2)} µs a message (best of two after a warm-up) × ${count(without.perSecond)} msg/s`,
        detail: { micros: engineCost },
      },
      {
        id: 'rulesRssAddedMb',
        figure: `RSS added by ${count(SCENES)} enabled scenes`,
        value: added / MB,
        unit: 'MB',
        budget: 20,
        note: `${mb(rssBefore.rss)} before creating them, ${mb(rssAfter.rss)} after (each read 1 s after the load stopped), ${((added / SCENES) / 1024).toFixed(1)} KB a scene`,
        detail: { before: rssBefore.rss, after: rssAfter.rss },
      },
      {
        id: 'rulesCrossingAlarmP99Ms',
        figure: 'threshold crossing: PUBACK → ALARM_DATA on a websocket, p99',
        value: percentile(latencies, 99),
        unit: 'ms',
        budget: 50,
        note: `${count(CROSSINGS)} crossings of one device, each raising the same alarm again (count + 1), while ${PUBLISHERS} other devices publish ${count(PACED_TOTAL_RATE)} msg/s (reached ${count(paced.perSecond)}): p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms`,
        detail: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99) },
      },
    ];
  } finally {
    await closeAll(clients);
    await gw.stop();
  }
}
