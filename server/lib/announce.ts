/**
 * Emitting from places a listener's exception must not reach: a broker callback (it would throw
 * inside aedes and take the process down) or right after a commit (it must not look like the
 * commit failed). The failure is logged and the other listeners still hear the event.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { EventBus, Events } from './event-bus.ts';

export type Announce = <K extends keyof Events>(event: K, payload: Events[K]) => void;

export function announcer(bus: EventBus, log: FastifyBaseLogger): Announce {
  return (event, payload) => {
    try {
      bus.emit(event, payload);
    } catch (err) {
      log.error({ err, event }, 'event listener failed');
    }
  };
}
