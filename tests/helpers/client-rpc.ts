/**
 * Client-side RPC as ThingsBoard's device SDK (tb-mqtt-client's TBDeviceMqttClient) does it: the
 * subscriptions it makes on every connect, then calls on `v1/devices/me/rpc/request/{id}` whose
 * answers come on `v1/devices/me/rpc/response/{id}`. Written for any MQTT version the broker speaks.
 */
import type { MqttClient } from 'mqtt';
import type { App } from '../../server/app.ts';
import type { EventBus, Events } from '../../server/lib/event-bus.ts';
import { connectDevice } from './mqtt.ts';

/** MQTT 3.1.1 (4) today; the SDK speaks 5, which these tests take unchanged once the broker does. */
export type MqttVersion = 4 | 5;

/** What TBDeviceMqttClient subscribes to on connect, in its order, at its default QoS 1. */
export const sdkSubscriptions = ['v1/devices/me/attributes', 'v1/devices/me/attributes/response/+', 'v1/devices/me/rpc/request/+', 'v1/devices/me/rpc/response/+'];

/** Every payload of `event` emitted from now on. */
export function record<K extends keyof Events>(bus: EventBus, event: K): Events[K][] {
  const seen: Events[K][] = [];
  bus.on(event, (payload) => seen.push(payload));
  return seen;
}

/** A device connected and subscribed as the SDK does; `granted` holds the SUBACK's QoS per filter (128 refused). */
export async function sdkDevice(app: App, token: string, protocolVersion: MqttVersion): Promise<{ client: MqttClient; granted: number[] }> {
  const client = await connectDevice(app, { username: token, protocolVersion });
  const granted = await client.subscribeAsync(sdkSubscriptions, { qos: 1 });
  return { client, granted: granted.map((g) => g.qos) };
}

/** The JSON of the next message on `topic`. */
export function nextOn(client: MqttClient, topic: string): Promise<unknown> {
  return new Promise((resolve) => {
    const listener = (received: string, payload: Buffer): void => {
      if (received !== topic) return;
      client.off('message', listener);
      resolve(JSON.parse(payload.toString('utf8')));
    };
    client.on('message', listener);
  });
}

/** Calls `method` as TBDeviceMqttClient.send_rpc_call does and resolves with the answer. */
export async function callRpc(client: MqttClient, id: number, method: string, params: unknown): Promise<unknown> {
  const answer = nextOn(client, `v1/devices/me/rpc/response/${id}`);
  await client.publishAsync(`v1/devices/me/rpc/request/${id}`, JSON.stringify({ method, params }), { qos: 1 });
  return answer;
}
