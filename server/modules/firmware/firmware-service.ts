/**
 * Firmware updates of the gateway itself: the packages on disk, their status, and staging one for
 * the next start. What happens at that start (the trial, the health window, the rollback) is the
 * boot side's, server/lib/firmware/firmware-boot.ts; this side only ever commits a trial by writing
 * the state file, the last step of staging.
 */
import { chmodSync, mkdirSync, renameSync, rmSync, statfsSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { ErrorCode } from '../../contract/errors.ts';
import type { FirmwareList, FirmwarePackage, FirmwarePackageStatus, FirmwareUploadResult } from '../../contract/firmware.ts';
import type { Db } from '../../db/sqlite.ts';
import type { Announce } from '../../lib/event-bus.ts';
import { AppError } from '../../lib/app-error.ts';
import { diskFullError } from '../../lib/disk-full.ts';
import { compareVersions } from '../../lib/firmware/firmware-format.ts';
import { fsyncPath } from '../../lib/durable-file.ts';
import { binaryOf, readFirmwareState, writeFirmwareState, type FirmwarePaths, type FirmwareState } from '../../lib/firmware/firmware-state.ts';
import type { FirmwarePackages, StoredPackage } from './firmware-packages.ts';

export interface FirmwareServiceDeps {
  db: Db;
  /** The bus's emit: `firmware.staged` makes the process restart into the trial (server/main.ts). */
  announce: Announce;
  paths: FirmwarePaths;
  packages: FirmwarePackages;
  /** The version serving requests (build-time version). */
  version: string;
  minFreeBytes: number;
}

function statusOf(id: string, state: FirmwareState): FirmwarePackageStatus {
  if (state.trial?.packageId === id) return 'trial';
  if (state.current?.packageId === id) return 'installed';
  if (state.last?.packageId === id && state.last.result === 'rolledBack') return 'rolledBack';
  return 'staged';
}

function toPackage(p: StoredPackage, state: FirmwareState): FirmwarePackage {
  const { version, arch, commit, minVersion, sha256, size, buildTime } = p.manifest;
  return { id: p.id, version, arch, commit, minVersion, sha256, size, buildTime, uploadedAt: p.uploadedAt, verified: true, status: statusOf(p.id, state) };
}

function conflict(key: 'error.firmware.busy' | 'error.firmware.downgrade' | 'error.firmware.tooOld', params: Record<string, string> = {}): AppError {
  return new AppError(ErrorCode.VERSION_CONFLICT, key, params, { status: 409 });
}

export class FirmwareService {
  constructor(private readonly deps: FirmwareServiceDeps) {}

  list(): FirmwareList {
    const state = readFirmwareState(this.deps.paths);
    const last = state.last ? { result: state.last.result, version: state.last.version, reason: state.last.reason, at: state.last.at } : null;
    return { runningVersion: this.deps.version, phase: state.phase, lastOutcome: last, packages: this.deps.packages.list().map((p) => toPackage(p, state)) };
  }

  async upload(body: Readable, declaredBytes: number, wasTruncated: () => boolean): Promise<FirmwareUploadResult> {
    this.deps.packages.checkRoomFor(declaredBytes);
    const { id, manifest } = await this.deps.packages.receive(body, wasTruncated);
    return { id, version: manifest.version, arch: manifest.arch, verified: true };
  }

  /**
   * Stages package `id` for the next start, in an order where a power cut at any step leaves a
   * gateway that starts: the binary and the database copy are written first under names nothing
   * starts from, and the state file's rename, last, is what makes the next start a trial.
   * Returns the version staged; the caller restarts the process once the answer is sent.
   */
  async stage(id: string, allowDowngrade: boolean): Promise<{ version: string; downgrade: boolean }> {
    const state = readFirmwareState(this.deps.paths);
    if (state.phase === 'trial') throw conflict('error.firmware.busy');
    const stored = this.deps.packages.find(id);
    if (!stored) throw new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.firmware.notFound', {}, { status: 404 });
    const { version, minVersion, size } = stored.manifest;
    if (compareVersions(this.deps.version, minVersion) < 0) throw conflict('error.firmware.tooOld', { version, minVersion, running: this.deps.version });
    const downgrade = compareVersions(version, this.deps.version) <= 0;
    if (downgrade && !allowDowngrade) throw conflict('error.firmware.downgrade', { version, running: this.deps.version });
    this.checkRoom(size);

    const slot = { packageId: id, version };
    const binary = binaryOf(this.deps.paths, slot);
    mkdirSync(this.deps.paths.bin, { recursive: true, mode: 0o700 });
    await this.deps.packages.extractBinary(id, `${binary}.partial`);
    chmodSync(`${binary}.partial`, 0o755);
    fsyncPath(`${binary}.partial`);
    renameSync(`${binary}.partial`, binary);
    this.copyDatabase();
    writeFirmwareState(this.deps.paths, { ...state, phase: 'trial', trial: { ...slot, attempts: 0 } });
    return { version, downgrade };
  }

  /** Called once the apply's answer has been sent: the process may now close and restart. */
  announceStaged(packageId: string, version: string): void {
    this.deps.announce('firmware.staged', { packageId, version });
  }

  /** Room for the binary and a copy of the database above the disk floor. */
  private checkRoom(binaryBytes: number): void {
    const disk = statfsSync(this.deps.paths.dir);
    let dbBytes = 0;
    try {
      dbBytes = statSync(this.deps.paths.database).size;
    } catch {
      // No database file yet (an in-memory test): nothing to copy.
    }
    if (disk.bavail * disk.bsize - binaryBytes - dbBytes < this.deps.minFreeBytes) throw diskFullError();
  }

  /**
   * The database as it is now, for a rollback to restore: a newer binary migrates it forward at its
   * first start, and an older binary cannot read what it does not know. VACUUM INTO writes a
   * consistent copy while the database stays open; changes made after it are lost by a rollback.
   */
  private copyDatabase(): void {
    const target = this.deps.paths.preUpdateDb;
    const tmp = `${target}.partial`;
    rmSync(tmp, { force: true });
    this.deps.announce('database.copying', { reason: 'firmware' });
    this.deps.db.exec(`VACUUM INTO '${tmp.replaceAll("'", "''")}'`);
    fsyncPath(tmp);
    renameSync(tmp, target);
  }
}
