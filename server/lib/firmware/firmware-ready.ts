/**
 * Telling whoever started this process that it is up: the supervising parent of a firmware trial
 * (firmware-supervisor.ts) over IPC, and systemd (`Type=notify`) with READY=1 and watchdog pings.
 * Node cannot open the unix datagram socket sd_notify needs, so the messages go through the
 * `systemd-notify` tool, which the unit allows with `NotifyAccess=all`.
 */
import { execFile } from 'node:child_process';
import type { ReadyMessage } from './firmware-supervisor.ts';
import { SUPERVISED_ENV } from './firmware-supervisor.ts';

/** Sends one sd_notify state line when running under systemd; a failure is only logged. */
export function notifySystemd(state: string, log: (line: string) => void): void {
  if (!process.env.NOTIFY_SOCKET) return;
  execFile('systemd-notify', [state], (err) => {
    if (err) log(`systemd-notify ${state}: ${err.message}`);
  });
}

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
 * asks for them (WATCHDOG_USEC), at half its period.
 */
export async function announceReady(check: ReadyCheck): Promise<boolean> {
  let httpUp = false;
  try {
    httpUp = (await fetch(check.healthUrl, { signal: AbortSignal.timeout(10_000) })).ok;
  } catch {
    httpUp = false;
  }
  if (!httpUp || !check.brokerListening) {
    check.log(`not ready: ${httpUp ? 'the device broker is not listening' : `${check.healthUrl} does not answer`}`);
    return false;
  }
  if (process.env[SUPERVISED_ENV] === '1' && process.send) {
    const message: ReadyMessage = { type: 'edge-firmware-ready', healthUrl: check.healthUrl };
    process.send(message);
  }
  notifySystemd('READY=1', check.log);
  const usec = Number(process.env.WATCHDOG_USEC);
  if (Number.isFinite(usec) && usec > 0) {
    setInterval(() => notifySystemd('WATCHDOG=1', check.log), Math.max(1000, usec / 2000)).unref();
  }
  return true;
}
