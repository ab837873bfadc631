/**
 * A warning for refusals that can come thousands per second (a client hammering a port): the
 * first is logged, then at most one line per interval, carrying how many there were since the
 * last line, so a misbehaving client cannot fill a gateway's flash through its log.
 */
import type { FastifyBaseLogger } from 'fastify';

/** One line per interval by default. */
export const REFUSAL_WARNING_INTERVAL_MS = 60_000;

/** Logs `message` with `fields` and `refused` (the count since the last line), at most once per interval. */
export function refusalWarning(log: FastifyBaseLogger, message: string, intervalMs = REFUSAL_WARNING_INTERVAL_MS): (fields: Record<string, unknown>) => void {
  let lastAt = -Infinity;
  let refused = 0;
  return (fields) => {
    refused += 1;
    const now = Date.now();
    if (now - lastAt < intervalMs) return;
    log.warn({ ...fields, refused }, message);
    lastAt = now;
    refused = 0;
  };
}
