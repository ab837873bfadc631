/**
 * Typed in-process event bus: modules announce what happened here instead of reaching into each
 * other. Add an event by adding a line to `Events`.
 */
import { EventEmitter } from 'node:events';
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
