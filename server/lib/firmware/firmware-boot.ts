/**
 * What a start runs, decided from the state file before anything else opens the data dir, and the
 * two transitions that end a trial. The state machine, in full:
 *
 *   good ──apply (firmware-service.ts stages and writes trial, attempts 0)──▶ trial
 *   trial, attempts < 3 ──start: attempts+1 written, then the trial binary starts──▶ trial
 *   trial, attempts = 3 ──start──▶ rollback ──▶ good (current unchanged, last = rolledBack)
 *   trial, no READY in time, or unhealthy at the window's end (firmware-supervisor.ts) ──▶ rollback
 *   trial, healthy for the whole window ──▶ markGood ──▶ good (current = the trial, last = installed)
 *
 * Every transition is one atomic state write, made after the files it relies on are in place and
 * before the files it frees are removed, so a power cut between any two steps resumes correctly:
 * counting the start before making it bounds a crash-or-power-cut loop to 3 starts.
 */
import { existsSync, rmSync } from 'node:fs';
import { binaryOf, readFirmwareState, restorePreUpdateDatabase, TRIAL_MAX_STARTS, writeFirmwareState, type FirmwarePaths, type FirmwareState } from './firmware-state.ts';

/** `here`: this process serves; `child`: it starts `binary` and watches it (firmware-supervisor.ts). */
export type BootPlan = { kind: 'here' } | { kind: 'child'; binary: string; trial: boolean };

export type RollbackReason = 'crashed' | 'notReady' | 'unhealthy';

/**
 * Ends the trial: the pre-update database goes back in place, the previous binary is current
 * again, and `last` records why for the console. Runs only while no child has the database open.
 */
export function rollback(paths: FirmwarePaths, reason: RollbackReason, log: (line: string) => void): FirmwareState {
  const state = readFirmwareState(paths);
  if (state.phase !== 'trial' || !state.trial) return state;
  const { packageId, version } = state.trial;
  const restored = restorePreUpdateDatabase(paths);
  const next: FirmwareState = { phase: 'good', current: state.current, trial: null, last: { result: 'rolledBack', version, reason, at: Date.now(), packageId } };
  writeFirmwareState(paths, next);
  rmSync(paths.preUpdateDb, { force: true });
  rmSync(binaryOf(paths, state.trial), { force: true });
  log(`firmware: ${version} rolled back (${reason})${restored ? '; database restored from before the update' : ''}`);
  return next;
}

/** Keeps the trial binary for good: it served healthy for the whole window. `baseVersion`: the supervising binary's. */
export function markGood(paths: FirmwarePaths, log: (line: string) => void, baseVersion: string): void {
  const state = readFirmwareState(paths);
  if (state.phase !== 'trial' || !state.trial) return;
  const { packageId, version } = state.trial;
  const previous = state.current;
  writeFirmwareState(paths, { phase: 'good', current: { packageId, version, base: baseVersion }, trial: null, last: { result: 'installed', version, at: Date.now(), packageId } });
  rmSync(paths.preUpdateDb, { force: true });
  // The binary it replaced is no longer a rollback target; the base binary is never removed.
  if (previous && previous.packageId !== packageId) rmSync(binaryOf(paths, previous), { force: true });
  log(`firmware: ${version} marked good`);
}

/**
 * Decides this start, counting it first when it is a trial's. `baseVersion` is this binary's: when
 * a package manager (the .deb, the .ipk) replaced the binary an installed firmware was kept over,
 * the new base runs and the installed binary is left aside, so `dpkg -i` is never silently undone.
 */
export function planBoot(paths: FirmwarePaths, log: (line: string) => void, baseVersion: string): BootPlan {
  let state = readFirmwareState(paths);
  if (state.phase === 'trial' && state.trial) {
    if (state.trial.attempts >= TRIAL_MAX_STARTS) {
      state = rollback(paths, 'crashed', log);
    } else {
      const trial = { ...state.trial, attempts: state.trial.attempts + 1 };
      writeFirmwareState(paths, { ...state, trial });
      log(`firmware: starting ${trial.version} on trial (start ${trial.attempts} of ${TRIAL_MAX_STARTS})`);
      return { kind: 'child', binary: binaryOf(paths, trial), trial: true };
    }
  }
  if (state.current && state.current.base !== baseVersion) {
    log(`firmware: this binary (${baseVersion}) replaced the one ${state.current.version} was installed over; running it`);
    writeFirmwareState(paths, { ...state, current: null });
    rmSync(binaryOf(paths, state.current), { force: true });
  } else if (state.current) {
    const binary = binaryOf(paths, state.current);
    if (existsSync(binary)) {
      log(`firmware: starting the installed ${state.current.version}`);
      return { kind: 'child', binary, trial: false };
    }
    // Someone removed it: the base binary still starts, which beats a gateway that does not.
    log(`firmware: ${binary} is missing; starting the base binary`);
  }
  return { kind: 'here' };
}
