/**
 * Telling whoever started this process that it is up: the supervising parent of a firmware trial
 * (firmware-supervisor.ts) over IPC, and systemd (`Type=notify`, systemd-notify.ts) with READY=1
 * and watchdog pings.
 */
import type { ReadyMessage } from './firmware-supervisor.ts';
import { SUPERVISED_ENV } from './firmware-supervisor.ts';
import { notifySystemd, startWatchdogPings } from './systemd-notify.ts';

export interface ReadyCheck {
  /** GET /api/health of this process, reachable from the same host. */
  healthUrl: string;
  /** Whether the device broker listens (embedded mode); true where there is none (proxy mode). */
  brokerListening: boolean;
  log: (line: string) => void;
}

/**
 * Reports ready once the gateway serves: the database is migrated (the app was built), the broker
 * listens and HTTP answers its own health call. Starts the systemd watchdog pings when the unit
 * asks for them (WATCHDOG_USEC), at half its period; resolves to what stops them.
 */
export async function announceReady(check: ReadyCheck): Promise<() => void> {
  const supervised = process.env[SUPERVISED_ENV] === '1' && typeof process.send === 'function';
  // Nobody to tell (a plain start outside systemd): no self-check, which would load fetch for nothing.
  if (!supervised && !process.env.NOTIFY_SOCKET) return () => {};
  let httpUp = false;
  try {
    httpUp = (await fetch(check.healthUrl, { signal: AbortSignal.timeout(10_000) })).ok;
  } catch {
    httpUp = false;
  }
  if (!httpUp || !check.brokerListening) {
    check.log(`not ready: ${httpUp ? 'the device broker is not listening' : `${check.healthUrl} does not answer`}`);
    return () => {};
  }
  if (supervised) {
    const message: ReadyMessage = { type: 'edge-firmware-ready', healthUrl: check.healthUrl };
    process.send!(message);
  }
  notifySystemd('READY=1', check.log);
  // Stopped when this process stops serving: a parent that only supervises must not keep pinging
  // for a child that may hang (the child pings for itself).
  return startWatchdogPings(check.log);
}
