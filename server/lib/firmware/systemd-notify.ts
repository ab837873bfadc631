/**
 * sd_notify for a Node process: Node cannot write to the unix datagram socket systemd listens on,
 * so each message runs the `systemd-notify` tool, which the unit accepts from any of its processes
 * (`NotifyAccess=all`, firmware-pack/edge-console.service). Nothing happens outside systemd.
 */
import { execFile } from 'node:child_process';

/** Sends one state line (`READY=1`, `WATCHDOG=1`) under systemd; a failure is only logged. */
export function notifySystemd(state: string, log: (line: string) => void): void {
  if (!process.env.NOTIFY_SOCKET) return;
  execFile('systemd-notify', [state], (err) => {
    if (err) log(`systemd-notify ${state}: ${err.message}`);
  });
}

/** Pings the watchdog at half the unit's WatchdogSec while the unit asks for it; returns what stops them. */
export function startWatchdogPings(log: (line: string) => void): () => void {
  const usec = Number(process.env.WATCHDOG_USEC);
  if (!process.env.NOTIFY_SOCKET || !Number.isFinite(usec) || usec <= 0) return () => {};
  const pings = setInterval(() => notifySystemd('WATCHDOG=1', log), Math.max(1000, usec / 2000));
  pings.unref();
  return () => clearInterval(pings);
}
