/**
 * MQTT sessions, in memory: what outlives one connection of a device (its subscriptions and the
 * server messages not yet acknowledged, rpc-delivery.ts) when it asked for a persistent session
 * (3.1.1 clean session false; MQTT 5 Session Expiry Interval > 0).
 *
 * Sessions belong to devices: a session is keyed `{deviceId}/{clientId}`, because devices choose
 * client IDs freely and often share one (one firmware image, one ID). A device gets back only its
 * own session and can never take over or close another device's connection; two devices
 * presenting one ID simply hold two sessions.
 *
 * A persistent session lives at most SESSION_EXPIRY_MAX_S after its connection ends (MQTT 3.1.1
 * sessions would otherwise live forever, and MQTT 5 allows ~136 years), and a deleted device's
 * sessions are dropped at once.
 */
import { RpcDelivery } from './rpc-delivery.ts';

/** The longest a session outlives its connection: one day. */
export const SESSION_EXPIRY_MAX_S = 86_400;

export class MqttSession {
  /** Granted subscriptions: filter → QoS (0 or 1; server messages never use QoS 2). */
  readonly subscriptions = new Map<string, 0 | 1>();
  readonly delivery = new RpcDelivery();
  /** Seconds the session outlives its connection (0: it ends with it). */
  expirySeconds = 0;
  /** The live connection's handle, or null while the session waits to be resumed. */
  attached: object | null = null;
  expiryTimer: NodeJS.Timeout | null = null;
  private lastId = 0;

  constructor(
    readonly key: string,
    readonly deviceId: string,
  ) {}

  /** A message id for a QoS 1 server message, skipping ids still waiting for their PUBACK. */
  nextMessageId(): number {
    do this.lastId = (this.lastId % 65_535) + 1;
    while (this.delivery.isPending(this.lastId));
    return this.lastId;
  }

  /** No subscription and no message waiting for its acknowledgement. */
  isEmpty(): boolean {
    return this.subscriptions.size === 0 && !this.delivery.hasPending();
  }

  /** The QoS `filter` was granted with, or null when not subscribed. */
  subscribedQos(filter: string): 0 | 1 | null {
    return this.subscriptions.get(filter) ?? null;
  }
}

export class MqttSessionStore {
  private readonly sessions = new Map<string, MqttSession>();
  private readonly byDevice = new Map<string, Set<MqttSession>>();

  /**
   * The session a CONNECT of `deviceId` with `clientId` continues (`present`: it had one), or a new
   * one when it had none or asked for a clean start; `previous` is the connection the key's
   * session was attached to, which the new one takes over.
   */
  open(deviceId: string, clientId: string, cleanStart: boolean): { session: MqttSession; present: boolean; previous: object | null } {
    const key = `${deviceId}/${clientId}`;
    const existing = this.sessions.get(key);
    const previous = existing?.attached ?? null;
    if (existing && !cleanStart) {
      if (existing.expiryTimer) clearTimeout(existing.expiryTimer);
      existing.expiryTimer = null;
      // A session holding nothing is reported as new, as aedes did: the device has nothing to
      // resume, and a CONNACK "session present" would only tell it a state it cannot see.
      return { session: existing, present: !existing.isEmpty(), previous };
    }
    if (existing) this.remove(existing);
    const session = new MqttSession(key, deviceId);
    this.sessions.set(key, session);
    const own = this.byDevice.get(deviceId) ?? new Set();
    own.add(session);
    this.byDevice.set(deviceId, own);
    return { session, present: false, previous };
  }

  /** The session's connection ended: it ends too, or waits `expirySeconds` (capped) to be resumed. */
  detach(session: MqttSession): void {
    session.attached = null;
    if (this.sessions.get(session.key) !== session) return;
    const seconds = Math.min(session.expirySeconds, SESSION_EXPIRY_MAX_S);
    if (seconds <= 0) {
      this.remove(session);
      return;
    }
    session.expiryTimer = setTimeout(() => {
      if (session.attached === null) this.remove(session);
    }, seconds * 1000);
    session.expiryTimer.unref();
  }

  /** Every session of a deleted device, gone from memory; returns them so their connections can be closed. */
  dropDevice(deviceId: string): MqttSession[] {
    const own = [...(this.byDevice.get(deviceId) ?? [])];
    for (const session of own) this.remove(session);
    return own;
  }

  /** Sessions held, connected or waiting. */
  get size(): number {
    return this.sessions.size;
  }

  clear(): void {
    for (const session of [...this.sessions.values()]) this.remove(session);
  }

  private remove(session: MqttSession): void {
    if (session.expiryTimer) clearTimeout(session.expiryTimer);
    session.expiryTimer = null;
    if (this.sessions.get(session.key) === session) this.sessions.delete(session.key);
    const own = this.byDevice.get(session.deviceId);
    own?.delete(session);
    if (own?.size === 0) this.byDevice.delete(session.deviceId);
  }
}
