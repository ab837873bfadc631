/**
 * Typed in-process event bus: modules announce what happened here instead of reaching into each
 * other. Add an event by adding a line to `Events`.
 */
import { EventEmitter } from 'node:events';
import type { Command } from '../contract/command.ts';
import type { CredentialsType } from '../contract/credentials.ts';

export interface Events {
  /** A user's sessions were revoked (password change, logout): close their websockets. */
  'user.sessionsRevoked': { userId: string };
  'license.changed': { status: 'MISSING' | 'VALID' | 'EXPIRED' };
  /** A device was created (single create, import or batch generation). */
  'device.created': { deviceId: string; deviceProfileId: string };
  /** A device's fields changed (edit, favourite, public flag, location). */
  'device.updated': { deviceId: string };
  /** A device and its credentials are gone: the transport closes its sessions. */
  'device.deleted': { deviceId: string };
  /** The credentials were replaced: the transport closes sessions opened with the old ones. */
  'device.credentialsChanged': { deviceId: string; credentialsType: CredentialsType };
  /** A product was published; the thing-model module publishes its model with it. */
  'product.published': { productId: string };
  'product.deleted': { productId: string };
  /** A product's thing model was published: caches of the published model are stale. */
  'thingModel.published': { deviceProfileId: string };
  /** Telemetry entries were committed (one event per device and batch). */
  'telemetry.stored': { deviceId: string; deviceProfileId: string; entries: TelemetryEntry[] };
  /** A device connected or went away (disconnect or inactivity timeout). */
  'device.stateChanged': { deviceId: string; state: 'ONLINE' | 'OFFLINE'; ts: number };
  /** A device answered a server-side RPC on `v1/devices/me/rpc/response/{requestId}`. */
  'device.rpcResponse': { deviceId: string; requestId: number; payload: unknown };
  /**
   * A device acknowledged server RPC `requestId`: the MQTT PUBACK of a QoS 1 request (its own
   * topic or its gateway's), or the HTTP poll that handed it over.
   */
  'device.rpcDelivered': { deviceId: string; requestId: number };
  /** A command record was created or its status changed (pushed to the device's command list). */
  'command.changed': { deviceId: string; command: Command };
  /** A device reported an event on `v1/devices/me/events` (stored as an event record). */
  'device.eventReported': {
    deviceId: string;
    eventId: string;
    ts: number;
    identifier: string;
    eventType: string;
    params: unknown;
  };
  /** One device message arrived (any topic): feeds the workbench's message volume. */
  'message.received': { deviceId: string; ts: number; bytes: number };
}

/** One stored telemetry value; `flag` says why it did not match the published thing model. */
export interface TelemetryEntry {
  ts: number;
  key: string;
  value: unknown;
  flag?: string;
}

export class EventBus {
  private readonly emitter = new EventEmitter({ captureRejections: false });
  constructor() {
    this.emitter.setMaxListeners(100);
  }
  on<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): () => void {
    this.emitter.on(event, listener);
    return () => this.emitter.off(event, listener);
  }
  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    this.emitter.emit(event, payload);
  }
}
