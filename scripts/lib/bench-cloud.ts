/**
 * Cloud link (issue budget: a backlog reaches the cloud's broker at ≥ 50 % of the rate that broker
 * takes from a bare publisher). In one run, against one Debian mosquitto on loopback:
 * - bare: an mqtt.js client publishes 100,000 small telemetry messages, QoS 1, 64 in flight (the
 *   cloud link's window), and the time to the last PUBACK gives the broker's rate;
 * - backlog drain: the built gateway stores 100,000 telemetry messages of 100 devices while its
 *   cloud is unreachable (a port nothing listens on), then its cloud is set to the broker; a
 *   subscriber counts the values arriving on `v1/gateway/telemetry` until all 100,000 are there.
 *   The rate is messages (stored values, one key each) per second from the save to the last one.
 * - live forwarding cost at 1,000 msg/s: bench-cloud-live.ts.
 */
import { connectAsync, type MqttClient } from 'mqtt';
import { cloudRoutes } from '../../server/contract/cloud.ts';
import { freePort } from './free-port.ts';
import { liveForwardingRows } from './bench-cloud-live.ts';
import { startProvisionedGateway } from './bench-gateway.ts';
import type { RowSpec } from './bench-row.ts';
import { Mosquitto } from './mosquitto.ts';
import { ensureDevices, ensureSimulatorProduct } from './simulator.ts';

const DEVICES = 100;
const MESSAGES = 100_000;
const WINDOW = 64;
const PER_PUBLISH = 500;

async function barePublisherRate(broker: Mosquitto): Promise<number> {
  const client = await connectAsync(broker.url, { clientId: 'bench-bare', reconnectPeriod: 0 });
  const payload = (i: number): string => JSON.stringify({ [`Device ${i % DEVICES}`]: [{ ts: Date.now(), values: { n: i } }] });
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: WINDOW }, async () => {
      while (next < MESSAGES) {
        const i = next++;
        await client.publishAsync('v1/gateway/telemetry', payload(i), { qos: 1 });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await client.endAsync();
  return MESSAGES / seconds;
}

/** Counts the values arriving on the gateway telemetry topic; resolves once `total` are in. */
async function countValues(broker: Mosquitto, total: number): Promise<{ client: MqttClient; done: Promise<number> }> {
  const client = await connectAsync(broker.url, { clientId: 'bench-cloud', reconnectPeriod: 0 });
  await client.subscribeAsync('v1/gateway/telemetry', { qos: 0 });
  let seen = 0;
  const done = new Promise<number>((resolve) => {
    client.on('message', (_topic, payload) => {
      const body = JSON.parse(payload.toString()) as Record<string, { values: Record<string, unknown> }[]>;
      for (const points of Object.values(body)) for (const p of points) seen += Object.keys(p.values).length;
      if (seen >= total) resolve(performance.now());
    });
  });
  return { client, done };
}

export async function cloudRows(binary: string): Promise<RowSpec[]> {
  const broker = await Mosquitto.start();
  try {
    // One gateway at a time: the drain's gateway is stopped before the live rows start theirs.
    return [...(await drainRows(binary, broker)), ...(await liveForwardingRows(binary, broker))];
  } finally {
    await broker.remove();
  }
}

async function drainRows(binary: string, broker: Mosquitto): Promise<RowSpec[]> {
  const gw = await startProvisionedGateway(binary);
  try {
    const bare = await barePublisherRate(broker);
    const cloud = (port: number) => ({ platformAddress: '127.0.0.1', platformPort: port, platformKey: 'bench-edge', platformSecret: 'bench' });
    // Unreachable first: the backlog builds up, and the devices created after it are owed all their values.
    await gw.http.call(cloudRoutes.save, { body: cloud(await freePort()) });
    const product = await ensureSimulatorProduct(gw.http, 'Cloud_bench');
    const devices = await ensureDevices(gw.http, product.id, DEVICES);
    const first = Date.now() - 3_600_000;
    await Promise.all(
      devices.map(async (d, n) => {
        const client = await connectAsync(gw.mqttUrl, { username: d.token, clientId: `bench-dev-${n}`, reconnectPeriod: 0 });
        const perDevice = MESSAGES / DEVICES;
        for (let from = 0; from < perDevice; from += PER_PUBLISH) {
          const batch = Array.from({ length: Math.min(PER_PUBLISH, perDevice - from) }, (_, i) => ({ ts: first + (from + i) * 10, values: { v: from + i } }));
          await client.publishAsync('v1/devices/me/telemetry', JSON.stringify(batch), { qos: 1 });
        }
        await client.endAsync();
      }),
    );
    const counter = await countValues(broker, MESSAGES);
    const started = performance.now();
    await gw.http.call(cloudRoutes.save, { body: cloud(broker.port) });
    const finished = await counter.done;
    await counter.client.endAsync();
    const drain = MESSAGES / ((finished - started) / 1000);
    return [
      {
        id: 'cloudBarePublisherMsgPerS',
        figure: 'mosquitto from a bare mqtt.js publisher (QoS 1, 64 in flight)',
        value: Math.round(bare),
        unit: 'msg/s',
        note: `${MESSAGES.toLocaleString('en')} messages of one value`,
      },
      {
        id: 'cloudBacklogDrainMsgPerS',
        figure: 'cloud backlog drain into mosquitto',
        value: Math.round(drain),
        unit: 'msg/s',
        better: 'higher',
        budget: Math.round(bare / 2),
        note: `${MESSAGES.toLocaleString('en')} stored messages of ${DEVICES} devices, from the save of the cloud settings to the last value; budget 50 % of the bare publisher's rate in this run`,
      },
    ];
  } finally {
    await gw.stop();
  }
}
