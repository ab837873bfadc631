/**
 * Server messages to MQTT devices (RPC requests, attribute answers) on their way to the device:
 * held until the device subscribes to their topic, and matched with the device's acknowledgements
 * (the DELIVERED command status).
 *
 * - A message goes out at the QoS the client subscribed its filter with
 *   (`v1/devices/me/rpc/request/+`, a gateway's `v1/gateway/rpc`), at most the QoS asked for. A
 *   client that has not subscribed yet (a command queued while the device was offline goes out the
 *   moment it connects, before its SUBSCRIBE) gets it once it does, as ThingsBoard sends pending
 *   RPCs on the RPC subscription.
 * - A QoS 0 subscriber has nothing to acknowledge: its command stays SENT until the answer.
 * - aedes tells of a PUBACK with its `ack` event, but for a clean session (what devices use) it
 *   keeps no copy of the message and cannot say which one was acknowledged. MQTT (3.1.1 and 5,
 *   section 4.6) makes a client send its PUBACKs in the order the QoS 1 PUBLISH packets arrived,
 *   and aedes writes one client's packets in the order they were handed to it, so each client's
 *   QoS 1 server messages wait in a queue and each acknowledgement takes the oldest. Messages that
 *   carry no RPC request hold their place as `null`.
 */
import type { Client } from 'aedes';
import { deviceTopics } from '../../contract/device-api.ts';

/** The command behind a request: the device it is for (a gateway's sub-device) and its request id. */
export interface RpcRef {
  deviceId: string;
  requestId: number;
}

/** A message waiting for the client's subscription. */
export interface HeldMessage {
  topic: string;
  payload: Buffer;
  qos: 0 | 1;
  rpc: RpcRef | null;
}

/** Per client, so a device that never subscribes or never acknowledges cannot make memory grow. */
const PER_CLIENT_MAX = 1000;

/** The subscription filter that carries server topic `topic` to a device (topic-acl.ts allows only these). */
export function filterOf(topic: string): string {
  for (const prefix of [deviceTopics.rpcRequest, deviceTopics.attributesResponse]) if (topic.startsWith(prefix)) return `${prefix}+`;
  return topic;
}

function bounded<T>(map: WeakMap<Client, T[]>, client: Client, item: T): void {
  const list = map.get(client) ?? [];
  list.push(item);
  if (list.length > PER_CLIENT_MAX) list.shift();
  map.set(client, list);
}

export class RpcDelivery {
  private readonly inFlight = new WeakMap<Client, (RpcRef | null)[]>();
  private readonly held = new WeakMap<Client, HeldMessage[]>();

  /** Keeps `message` until `client` subscribes to its topic. */
  hold(client: Client, message: HeldMessage): void {
    bounded(this.held, client, message);
  }

  /** The held messages `filter` now carries to `client`, in the order they came. */
  release(client: Client, filter: string): HeldMessage[] {
    const list = this.held.get(client);
    if (!list) return [];
    const due = list.filter((m) => filterOf(m.topic) === filter);
    if (due.length) this.held.set(client, list.filter((m) => filterOf(m.topic) !== filter));
    return due;
  }

  /** A QoS 1 message went to `client`; `rpc` names the request it carries, if it is one. */
  sent(client: Client, rpc: RpcRef | null): void {
    bounded(this.inFlight, client, rpc);
  }

  /** `client` acknowledged its oldest QoS 1 message: the request it carried, or null. */
  acked(client: Client): RpcRef | null {
    return this.inFlight.get(client)?.shift() ?? null;
  }
}
