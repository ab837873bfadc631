/**
 * Typed in-process event bus: modules announce what happened here instead of reaching into each
 * other. Add an event by adding a line to `Events`.
 */
import { EventEmitter } from 'node:events';

export interface Events {
  /** A user's sessions were revoked (password change, logout): close their websockets. */
  'user.sessionsRevoked': { userId: string };
  'license.changed': { status: 'MISSING' | 'VALID' | 'EXPIRED' };
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
