/**
 * Running an installed binary as a child of the one the service manager (or the operator) started:
 * Node cannot exec() into another binary, so the base binary stays as a small parent that starts
 * the installed one, forwards signals to it, and during a trial decides from what the child does
 * whether to keep it (firmware-boot.ts holds the transitions).
 *
 * The child reports through the IPC channel of its spawn (server/lib/firmware/firmware-ready.ts):
 * `ready` once HTTP, database and broker are up. The channel also ties the child to the parent:
 * if the parent dies (kill -9) the channel closes and the child exits, so a restarted parent never
 * finds the data dir held by an orphan.
 */
import { spawn } from 'node:child_process';
import { markGood, rollback, type RollbackReason } from './firmware-boot.ts';
import type { FirmwarePaths } from './firmware-state.ts';
import { startWatchdogPings } from './systemd-notify.ts';

/** Exit code of a child that staged an update and wants the parent to start the next plan. */
export const EXIT_RESTART_FOR_UPDATE = 75;
/** Set in the child's environment: it is supervised and reports readiness over IPC. */
export const SUPERVISED_ENV = 'EDGE_FIRMWARE_SUPERVISED';
/** Time a child gets to stop after SIGTERM before SIGKILL (the binary's own limit is 10 s). */
const STOP_GRACE_MS = 15_000;

export interface ReadyMessage {
  type: 'edge-firmware-ready';
  healthUrl: string;
}

export interface SuperviseOptions {
  binary: string;
  args: string[];
  trial: boolean;
  paths: FirmwarePaths;
  readyTimeoutMs: number;
  healthWindowMs: number;
  /** This (supervising) binary's version, recorded with a kept trial. */
  baseVersion: string;
  log: (line: string) => void;
  /** Where SIGTERM/SIGINT go while the child runs: main.ts routes them here. */
  onStopRequest: (stop: (signal: NodeJS.Signals) => void) => void;
}

/** `replan`: read the state again and start what it says; `exit`: end this process with that code. */
export type SuperviseResult = { kind: 'replan' } | { kind: 'exit'; code: number };

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    return res.ok;
  } catch {
    return false;
  }
}

export function superviseChild(o: SuperviseOptions): Promise<SuperviseResult> {
  return new Promise((resolve) => {
    const child = spawn(o.binary, o.args, { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: { ...process.env, [SUPERVISED_ENV]: '1' } });
    let onTrial = o.trial;
    let failure: RollbackReason | null = null;
    let stopping = false;
    const timers: NodeJS.Timeout[] = [];
    const stopChild = (signal: NodeJS.Signals): void => {
      child.kill(signal);
      timers.push(setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS));
    };
    const fail = (reason: RollbackReason): void => {
      if (failure || !onTrial) return;
      failure = reason;
      o.log(`firmware: trial binary ${reason === 'notReady' ? `not ready within ${o.readyTimeoutMs} ms` : 'unhealthy at the end of its health window'}; stopping it`);
      stopChild('SIGTERM');
    };
    o.onStopRequest((signal) => {
      stopping = true;
      stopChild(signal);
    });
    if (onTrial) timers.push(setTimeout(() => fail('notReady'), o.readyTimeoutMs));
    // Until a trial child reports ready it cannot ping systemd's watchdog itself, and its start may
    // take longer than WatchdogSec; the ready timeout bounds how long these pings cover for it.
    const stopPings = onTrial ? startWatchdogPings(o.log) : () => {};

    child.on('message', (message: ReadyMessage) => {
      if (message?.type !== 'edge-firmware-ready' || !onTrial || failure) return;
      timers.splice(0).forEach(clearTimeout);
      stopPings();
      o.log(`firmware: trial binary ready; keeping it if it stays healthy for ${o.healthWindowMs} ms`);
      timers.push(
        setTimeout(() => {
          void healthy(message.healthUrl).then((ok) => {
            if (!ok) return fail('unhealthy');
            if (failure || stopping) return;
            markGood(o.paths, o.log, o.baseVersion);
            onTrial = false;
          });
        }, o.healthWindowMs),
      );
    });

    // 'error' without 'exit': the binary could not be started at all (missing, not executable).
    child.on('error', (err) => {
      o.log(`firmware: cannot start ${o.binary}: ${err.message}`);
      finish(null, null);
    });
    child.on('exit', (code, signal) => finish(code, signal));

    let finished = false;
    function finish(code: number | null, signal: NodeJS.Signals | null): void {
      if (finished) return;
      finished = true;
      timers.splice(0).forEach(clearTimeout);
      stopPings();
      if (stopping) return resolve({ kind: 'exit', code: code ?? 0 });
      if (failure) {
        rollback(o.paths, failure, o.log);
        return resolve({ kind: 'replan' });
      }
      if (code === EXIT_RESTART_FOR_UPDATE) return resolve({ kind: 'replan' });
      // A trial child that ended before it was kept: the next plan counts the start or rolls back.
      if (onTrial) {
        o.log(`firmware: trial binary ended (${signal ?? `exit code ${code}`}) before it was kept`);
        return resolve({ kind: 'replan' });
      }
      resolve({ kind: 'exit', code: code ?? 1 });
    }
  });
}
