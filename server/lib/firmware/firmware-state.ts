/**
 * The firmware state file, `<data-dir>/firmware/state.json`: which binary the gateway runs and
 * whether an update is on trial. It is the one record the update's steps commit through, written
 * to a temporary file, synced and renamed over the old one, so a power cut leaves either the old
 * state or the new one, never half of each. The database cannot hold it: a rollback restores the
 * database as it was before the update, and this record must say that the rollback happened.
 *
 * Files under `<data-dir>/firmware/`:
 *   state.json        this record
 *   packages/<id>.fw  verified uploads; <id>.json beside each holds its manifest and upload time
 *   bin/<id>          a package's binary, extracted when it is applied
 *   pre-update.db     the database copied at staging, restored by a rollback
 */
import { copyFileSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FirmwareOutcome } from '../../contract/firmware.ts';
import { fsyncPath, writeFileDurably } from '../durable-file.ts';
import { DATABASE_FILE } from '../data-dir.ts';

/** An installed package: its binary is `bin/<packageId>`. */
export interface FirmwareSlot {
  packageId: string;
  version: string;
}

export interface FirmwareState {
  /** `trial`: `trial` is being tried and `current` is what a failure falls back to. */
  phase: 'good' | 'trial';
  /**
   * What runs outside a trial; null: the binary the service manager (or the operator) starts.
   * `base`: that binary's version when this one was kept (firmware-boot.ts, planBoot).
   */
  current: (FirmwareSlot & { base?: string }) | null;
  /** `attempts`: starts made so far, counted before each start so a power cut counts too. */
  trial: (FirmwareSlot & { attempts: number }) | null;
  last: (FirmwareOutcome & { packageId: string }) | null;
}

/** Starts a trial binary gets before it is rolled back (RAUC's and greenboot's 3). */
export const TRIAL_MAX_STARTS = 3;

export const EMPTY_STATE: FirmwareState = { phase: 'good', current: null, trial: null, last: null };

export interface FirmwarePaths {
  dir: string;
  state: string;
  packages: string;
  bin: string;
  preUpdateDb: string;
  database: string;
}

export function firmwarePaths(dataDir: string): FirmwarePaths {
  const dir = join(dataDir, 'firmware');
  return {
    dir,
    state: join(dir, 'state.json'),
    packages: join(dir, 'packages'),
    bin: join(dir, 'bin'),
    preUpdateDb: join(dir, 'pre-update.db'),
    database: join(dataDir, DATABASE_FILE),
  };
}

/** Package ids are 16 hex digits (contract's apply route); anything else never names a file. */
export function binaryOf(paths: FirmwarePaths, slot: FirmwareSlot): string {
  if (!/^[0-9a-f]{16}$/.test(slot.packageId)) throw new Error(`bad package id ${slot.packageId}`);
  return join(paths.bin, slot.packageId);
}

/**
 * The state on disk. A missing file is a gateway never updated; an unreadable one is treated the
 * same, because the one answer that always starts is the service manager's own binary.
 */
export function readFirmwareState(paths: FirmwarePaths): FirmwareState {
  try {
    const parsed = JSON.parse(readFileSync(paths.state, 'utf8')) as FirmwareState;
    if (parsed.phase !== 'good' && parsed.phase !== 'trial') return EMPTY_STATE;
    return { ...EMPTY_STATE, ...parsed };
  } catch {
    return EMPTY_STATE;
  }
}


export function writeFirmwareState(paths: FirmwarePaths, state: FirmwareState): void {
  writeFileDurably(paths.state, `${JSON.stringify(state, null, 2)}\n`);
}

/**
 * Puts the pre-update copy back as the database. Runs only while no process has the database open
 * (the supervisor, between two children). The WAL and shared-memory files of the newer database go
 * first: SQLite would otherwise replay the newer WAL into the restored file; so does its telemetry
 * staging ring (the copy was made with every staged value moved in: `database.copying`). Repeating it after a
 * power cut at any step gives the same result, since the copy stays until the state says the
 * rollback is done.
 */
export function restorePreUpdateDatabase(paths: FirmwarePaths): boolean {
  if (!existsSync(paths.preUpdateDb)) return false;
  for (const suffix of ['-wal', '-shm', '-staging']) rmSync(paths.database + suffix, { force: true });
  const tmp = `${paths.database}.restore`;
  copyFileSync(paths.preUpdateDb, tmp);
  fsyncPath(tmp);
  renameSync(tmp, paths.database);
  fsyncPath(dirname(paths.database), 'r');
  return true;
}
