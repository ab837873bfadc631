/**
 * "DURATION fires within ±1 s of its time" (group `rules`), on the built binary over real sockets:
 * 20 devices, each with its own scene "temperature > 100 °C for D s" (D 2–5 s), each raising an
 * alarm. Every device, staggered, goes through rounds of: a cool value, then a hot one (the
 * condition becomes true when that message is stored: its PUBACK is the reference), hot values
 * every 250 ms while it holds, until the alarm's ALARM_DATA update arrives on a websocket. The
 * error is (update − PUBACK) − D; the first round creates the alarm, later ones raise it again
 * (count + 1), as ThingsBoard updates an open alarm.
 */
import { once } from 'node:events';
import WebSocket from 'ws';
import type { MqttClient } from 'mqtt';
import { deviceTopics } from '../../server/contract/device-api.ts';
import type { AlarmDataUpdate } from '../../server/contract/realtime.ts';
import { sceneLinkageRoutes } from '../../server/contract/scene-linkage.ts';
import type { RowSpec } from './bench-row.ts';
import { startProvisionedGateway } from './bench-gateway.ts';
import { closeAll, connectPublishers } from './bench-load.ts';
import { count, percentile, sleep } from './bench-measure.ts';
import { scene } from './bench-rules.ts';
import { ensureDevices, ensureSimulatorProduct } from './simulator.ts';

const DEVICES = 20;
const ROUNDS = 3;
const HOLD_EVERY_MS = 250;
const STAGGER_MS = 137;
const ALARM_TYPE = 'bench_duration';
const THRESHOLD = 100;
const durationSeconds = (i: number): number => 2 + (i % 4);

const hot = JSON.stringify({ temperature: THRESHOLD + 10 });
const cool = JSON.stringify({ temperature: 20 });

/** Arrival times (bench clock) of ALARM_DATA updates, by device and alarm count. */
class AlarmArrivals {
  private readonly waiting = new Map<string, (at: number) => void>();
  constructor(private readonly socket: WebSocket) {
    socket.on('message', (raw: Buffer) => {
      const at = performance.now();
      const update = JSON.parse(raw.toString('utf8')) as AlarmDataUpdate;
      for (const alarm of update.update ?? []) this.waiting.get(`${alarm.deviceId}:${alarm.count}`)?.(at);
    });
  }

  static async open(wsUrl: string, token: string): Promise<AlarmArrivals> {
    const socket = new WebSocket(`${wsUrl}?token=${encodeURIComponent(token)}`);
    await once(socket, 'open');
    socket.send(JSON.stringify({ cmds: [{ type: 'ALARM_DATA', cmdId: 1, query: { pageLink: { page: 0, pageSize: DEVICES, typeList: [ALARM_TYPE] } } }] }));
    await once(socket, 'message');
    return new AlarmArrivals(socket);
  }

  /** Resolves when the update for `deviceId`'s alarm with `count` arrives; register before it can. */
  expect(deviceId: string, alarmCount: number): Promise<number> {
    return new Promise((resolve) => this.waiting.set(`${deviceId}:${alarmCount}`, resolve));
  }

  close(): void {
    this.socket.close();
  }
}

/** One device's rounds: the signed errors (ms) of its DURATION firings. */
async function deviceRounds(client: MqttClient, deviceId: string, seconds: number, arrivals: AlarmArrivals): Promise<number[]> {
  const errors: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    await client.publishAsync(deviceTopics.telemetry, cool, { qos: 1 });
    const arrived = arrivals.expect(deviceId, round);
    let fired = Number.NaN;
    void arrived.then((at) => (fired = at));
    await client.publishAsync(deviceTopics.telemetry, hot, { qos: 1 });
    const trueAt = performance.now();
    const giveUp = trueAt + seconds * 1000 + 5000;
    while (Number.isNaN(fired) && performance.now() < giveUp) {
      await sleep(HOLD_EVERY_MS);
      if (Number.isNaN(fired)) await client.publishAsync(deviceTopics.telemetry, hot, { qos: 1 });
    }
    if (Number.isNaN(fired)) throw new Error(`bench: device ${deviceId} round ${round}: no alarm within ${seconds} s + 5 s`);
    errors.push(fired - trueAt - seconds * 1000);
  }
  await client.publishAsync(deviceTopics.telemetry, cool, { qos: 1 });
  return errors;
}

export async function durationRows(binary: string): Promise<RowSpec[]> {
  const gw = await startProvisionedGateway(binary);
  let clients: MqttClient[] = [];
  let arrivals: AlarmArrivals | null = null;
  try {
    const product = await ensureSimulatorProduct(gw.http, 'Bench-duration');
    const devices = await ensureDevices(gw.http, product.id, DEVICES);
    for (const [i, d] of devices.entries()) {
      const base = scene(`bench_duration_${i}`, product.id, 'temperature', [d.id], THRESHOLD);
      const trigger = { ...base.triggers[0]!, conditionType: 'DURATION' as const, duration: { value: durationSeconds(i), unit: 'SECONDS' as const } };
      await gw.http.call(sceneLinkageRoutes.create, {
        body: { ...base, triggers: [trigger], actions: [{ type: 'MSG_NOTIFY', severity: 'CRITICAL', alarmType: ALARM_TYPE }] },
      });
    }
    clients = await connectPublishers(gw.mqttUrl, devices.map((d) => ({ username: d.token, clientId: `duration-${d.id}` })));
    arrivals = await AlarmArrivals.open(gw.wsUrl, gw.http.accessToken ?? '');
    const open = arrivals;
    const perDevice = await Promise.all(
      devices.map((d, i) => sleep(i * STAGGER_MS).then(() => deviceRounds(clients[i]!, d.id, durationSeconds(i), open))),
    );
    const errors = perDevice.flat();
    const absolute = errors.map(Math.abs);
    const maxAbs = Math.max(...absolute);
    const signed = [...errors].sort((a, b) => a - b);
    return [
      {
        id: 'rulesDurationErrorMaxMs',
        figure: 'DURATION fires on time: max |fired − (true + duration)|',
        value: maxAbs,
        unit: 'ms',
        budget: 1000,
        note: `${count(DEVICES)} devices, one scene each (temperature > ${THRESHOLD} °C for 2–5 s), ${ROUNDS} rounds each (${count(errors.length)} firings): a cool value, a hot one (its PUBACK is when the condition became true), hot values every ${HOLD_EVERY_MS} ms until the alarm's ALARM_DATA update arrives on a websocket; |error| p50 ${percentile(absolute, 50).toFixed(1)} ms, p99 ${percentile(absolute, 99).toFixed(1)} ms; signed error from ${signed[0]!.toFixed(1)} to ${signed.at(-1)!.toFixed(1)} ms`,
        detail: { p50: percentile(absolute, 50), p99: percentile(absolute, 99), min: signed[0]!, max: signed.at(-1)! },
      },
    ];
  } finally {
    arrivals?.close();
    await closeAll(clients);
    await gw.stop();
  }
}
