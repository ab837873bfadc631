/**
 * The cloud in the cloud link's integration tests: an `mqtt` subscriber on a bare broker that keeps
 * every message the gateway published, and the few calls those tests make on the gateway.
 */
import { connectAsync, type MqttClient } from 'mqtt';
import { cloudRoutes } from '../../server/contract/cloud.ts';
import { cloudLinkRoutes, type EdgeState } from '../../server/contract/cloud-link.ts';
import { makeDeviceApp, type DeviceTestApp } from './devices.ts';
import { startMosquitto, type Mosquitto } from './mosquitto.ts';
import { connectDevice, eventually, tokenOf } from './mqtt.ts';

export interface Seen {
  topic: string;
  body: Record<string, unknown>;
}

/** The cloud's view: every message the gateway published, in order. */
export async function subscriber(broker: Mosquitto): Promise<{ client: MqttClient; seen: Seen[] }> {
  // A persistent session: after a broker restart the gateway may reconnect and publish before
  // this subscriber is back; the broker keeps those messages for it.
  const client = await connectAsync(broker.url, { reconnectPeriod: 200, clean: false, clientId: `cloud-${Math.random().toString(36).slice(2)}` });
  const seen: Seen[] = [];
  client.on('error', () => undefined);
  client.on('message', (topic, payload) => {
    try {
      seen.push({ topic, body: JSON.parse(payload.toString()) as Record<string, unknown> });
    } catch {
      // The test's own malformed publishes come back too.
    }
  });
  await client.subscribeAsync(['v1/gateway/#', 'v1/devices/me/telemetry'], { qos: 1 });
  return { client, seen };
}

export async function configureCloud(t: DeviceTestApp, broker: Mosquitto): Promise<void> {
  await t.api.ok(cloudRoutes.save, { body: { platformAddress: '127.0.0.1', platformPort: broker.port, platformKey: 'edge-key', platformSecret: 'edge-secret' } });
}

export async function edgeState(t: DeviceTestApp): Promise<EdgeState> {
  return t.api.ok(cloudLinkRoutes.state, {});
}

export function telemetryOf(seen: Seen[], name: string): { ts: number; values: Record<string, unknown> }[] {
  return seen
    .filter((m) => m.topic === 'v1/gateway/telemetry' && name in m.body)
    .flatMap((m) => m.body[name] as { ts: number; values: Record<string, unknown> }[]);
}

export async function sensor(t: DeviceTestApp, name: string): Promise<MqttClient> {
  const device = await t.api.createDevice({ name });
  return connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
}

/** A fresh mosquitto with the cloud's subscriber on it, and a gateway connected to it as its cloud. */
export async function linkedEdge(tuning: NonNullable<Parameters<typeof makeDeviceApp>[0]>['tuning']): Promise<{ broker: Mosquitto; cloud: Awaited<ReturnType<typeof subscriber>>; t: DeviceTestApp }> {
  const broker = await startMosquitto();
  const cloud = await subscriber(broker);
  const t = await makeDeviceApp({ tuning });
  await configureCloud(t, broker);
  await eventually(() => edgeState(t), (s) => s.status === 'CONNECTED');
  return { broker, cloud, t };
}
