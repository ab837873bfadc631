/**
 * Typed in-process event bus: modules announce what happened here instead of reaching into each
 * other. Each module declares the events it emits by merging into `Events`, next to its manifest,
 * with payload types from the contract:
 *
 *     declare module '../../lib/event-bus.ts' {
 *       interface Events { 'command.changed': { deviceId: string; command: Command } }
 *     }
 *
 * Emitting is safe from anywhere (a broker callback, right after a commit): each listener runs in
 * its own try/catch, so a failing listener is logged and the others still hear the event.
 * Node's EventEmitter would stop at the first listener that throws and hand the error to the emitter.
 */
import type { FastifyBaseLogger } from 'fastify';

/** Every event and its payload; filled in by the modules that emit them. */
export interface Events {}

export type EventName = keyof Events;
type Listener<K extends EventName> = (payload: Events[K]) => void;

/** The emit function as a value, for code that only announces (device state, message parsing). */
export type Announce = <K extends EventName>(event: K, payload: Events[K]) => void;

export class EventBus {
  private readonly listeners = new Map<EventName, Set<Listener<never>>>();
  private log: Pick<FastifyBaseLogger, 'error'> | null;

  constructor(log?: Pick<FastifyBaseLogger, 'error'>) {
    this.log = log ?? null;
  }

  /** Where failing listeners are reported, unless the bus was made with a logger already (a test's bus). */
  useLogger(log: Pick<FastifyBaseLogger, 'error'>): void {
    this.log ??= log;
  }

  on<K extends EventName>(event: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  emit<K extends EventName>(event: K, payload: Events[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    // No copy (emit runs per device message): a Set's iterator already copes with a listener
    // unsubscribing itself or another while the event is delivered.
    for (const listener of set) {
      try {
        (listener as Listener<K>)(payload);
      } catch (err) {
        if (this.log) this.log.error({ err, event }, 'event listener failed');
        else console.error(`event listener for ${event} failed`, err);
      }
    }
  }
}
