/**
 * Server messages to one MQTT session (RPC requests, attribute answers) on their way to the device:
 * held until the device subscribes to their topic, and, once sent at QoS 1, kept by message id
 * until the device acknowledges them (the DELIVERED command status), so that a persistent session
 * resends them on reconnect and the resent copy's PUBACK still names its request.
 *
 * - A message goes out at the QoS the client subscribed its filter with
 *   (`v1/devices/me/rpc/request/+`, a gateway's `v1/gateway/rpc`), at most the QoS asked for. A
 *   client that has not subscribed yet (a command queued while the device was offline goes out the
 *   moment it connects, before its SUBSCRIBE) gets it once it does, as ThingsBoard sends pending
 *   RPCs on the RPC subscription.
 * - A QoS 0 subscriber has nothing to acknowledge: its command stays SENT until the answer.
 */
import { deviceTopics } from '../../contract/device-api.ts';

/** The command behind a request: the device it is for (a gateway's sub-device) and its request id. */
export interface RpcRef {
  deviceId: string;
  requestId: number;
}

/** A message on its way to the device. */
export interface HeldMessage {
  topic: string;
  payload: Buffer;
  qos: 0 | 1;
  rpc: RpcRef | null;
}

/** Per session, so a device that never subscribes or never acknowledges cannot make memory grow. */
const PER_SESSION_MAX = 1000;

/** The subscription filter that carries server topic `topic` to a device (topic-acl.ts allows only these). */
export function filterOf(topic: string): string {
  for (const prefix of [deviceTopics.rpcRequest, deviceTopics.attributesResponse]) if (topic.startsWith(prefix)) return `${prefix}+`;
  return topic;
}

export class RpcDelivery {
  private held: HeldMessage[] = [];
  /** QoS 1 messages sent and not acknowledged, by message id, oldest first. */
  private readonly unacked = new Map<number, HeldMessage>();

  /** Keeps `message` until the session subscribes to its topic. */
  hold(message: HeldMessage): void {
    this.held.push(message);
    if (this.held.length > PER_SESSION_MAX) this.held.shift();
  }

  /** The held messages `filter` now carries, in the order they came. */
  release(filter: string): HeldMessage[] {
    if (this.held.length === 0) return [];
    const due = this.held.filter((m) => filterOf(m.topic) === filter);
    if (due.length) this.held = this.held.filter((m) => filterOf(m.topic) !== filter);
    return due;
  }

  /** A QoS 1 message went out under `messageId`. */
  sent(messageId: number, message: HeldMessage): void {
    this.unacked.set(messageId, message);
    if (this.unacked.size > PER_SESSION_MAX) this.unacked.delete(this.unacked.keys().next().value!);
  }

  /** The device acknowledged `messageId`: the request it carried, or null. */
  acked(messageId: number): RpcRef | null {
    const message = this.unacked.get(messageId);
    if (!message) return null;
    this.unacked.delete(messageId);
    return message.rpc;
  }

  /** Whether `messageId` still waits for its acknowledgement (ids are not reused while it does). */
  isPending(messageId: number): boolean {
    return this.unacked.has(messageId);
  }

  hasPending(): boolean {
    return this.unacked.size > 0;
  }

  /** The unacknowledged messages, oldest first, to resend when the session resumes. */
  pending(): IterableIterator<[number, HeldMessage]> {
    return this.unacked.entries();
  }
}
