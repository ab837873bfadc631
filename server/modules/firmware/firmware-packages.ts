/**
 * The uploaded packages under `<data-dir>/firmware/packages/`: each `.fw` is verified while it
 * streams to a `.partial` file and renamed to `<id>.fw` only once signature, architecture and hash
 * all passed, so a package on disk under its final name is always a verified one. Its manifest and
 * upload time go beside it in `<id>.json`.
 */
import { randomBytes, type KeyObject } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ErrorCode } from '../../contract/errors.ts';
import { FIRMWARE_MAX_BYTES, type FirmwareManifest } from '../../contract/firmware.ts';
import { AppError } from '../../lib/app-error.ts';
import { diskFullError, isOutOfSpace } from '../../lib/disk-full.ts';
import { FirmwareRejection, FirmwareVerifier, runningArch } from '../../lib/firmware/firmware-format.ts';
import { writeFileDurably } from '../../lib/durable-file.ts';
import type { FirmwarePaths } from '../../lib/firmware/firmware-state.ts';

export interface StoredPackage {
  id: string;
  manifest: FirmwareManifest;
  uploadedAt: number;
}

export function firmwareTooLarge(): AppError {
  return new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.upload.tooLarge', { size: `${FIRMWARE_MAX_BYTES / 1024 / 1024} MB` }, { status: 413 });
}

function refusal(err: FirmwareRejection): AppError {
  return new AppError(ErrorCode.BAD_REQUEST_PARAMS, `error.firmware.${err.reason}`, {});
}

/**
 * Passes bytes through a verifier, failing the stream at the first byte that proves the package
 * bad. `binaryOnly`: passes on only the binary's bytes, once the header before them verified.
 */
function verifying(verifier: FirmwareVerifier, binaryOnly = false): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        verifier.update(chunk);
      } catch (err) {
        done(err as Error);
        return;
      }
      const start = seen;
      seen += chunk.length;
      if (!binaryOnly) done(null, chunk);
      else done(null, verifier.manifest ? chunk.subarray(Math.max(0, verifier.binaryOffset - start)) : undefined);
    },
  });
}

export interface FirmwarePackagesDeps {
  paths: FirmwarePaths;
  trustedKeys: readonly KeyObject[];
  minFreeBytes: number;
}

export class FirmwarePackages {
  constructor(private readonly deps: FirmwarePackagesDeps) {
    mkdirSync(deps.paths.packages, { recursive: true, mode: 0o700 });
    // Leftovers of uploads a power cut or a dropped connection interrupted.
    for (const name of readdirSync(deps.paths.packages)) if (name.endsWith('.partial') || name.endsWith('.tmp')) rmSync(join(deps.paths.packages, name), { force: true });
  }

  /** Refuses an upload the disk cannot take above its floor, before a byte of it is written. */
  checkRoomFor(bytes: number): void {
    if (bytes > FIRMWARE_MAX_BYTES) throw firmwareTooLarge();
    const disk = statfsSync(this.deps.paths.packages);
    if (disk.bavail * disk.bsize - bytes < this.deps.minFreeBytes) throw diskFullError();
  }

  /** Streams `body` to disk through the verifier; nothing stays on disk unless it all verified. */
  async receive(body: Readable, wasTruncated: () => boolean): Promise<StoredPackage> {
    const id = randomBytes(8).toString('hex');
    const partial = join(this.deps.paths.packages, `${id}.fw.partial`);
    const verifier = new FirmwareVerifier({ trustedKeys: this.deps.trustedKeys, arch: runningArch() ?? undefined });
    try {
      await pipeline(body, verifying(verifier), createWriteStream(partial, { mode: 0o600 }));
      if (wasTruncated()) throw firmwareTooLarge();
      const stored: StoredPackage = { id, manifest: verifier.finish(), uploadedAt: Date.now() };
      writeFileDurably(join(this.deps.paths.packages, `${id}.json`), JSON.stringify(stored));
      // The .fw takes its final name last: a .json without its .fw is ignored by list().
      renameSync(partial, join(this.deps.paths.packages, `${id}.fw`));
      return stored;
    } catch (err) {
      rmSync(partial, { force: true });
      rmSync(join(this.deps.paths.packages, `${id}.json`), { force: true });
      if (err instanceof FirmwareRejection) throw refusal(err);
      if (err instanceof AppError) throw err;
      if (isOutOfSpace(err)) throw diskFullError();
      // The multipart stream ended before the file did (a cut connection or a malformed body).
      throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.firmware.truncated', {});
    }
  }

  list(): StoredPackage[] {
    const names = new Set(readdirSync(this.deps.paths.packages));
    const stored: StoredPackage[] = [];
    for (const name of names) {
      const id = name.replace(/\.json$/, '');
      if (!name.endsWith('.json') || !names.has(`${id}.fw`)) continue;
      try {
        stored.push(JSON.parse(readFileSync(join(this.deps.paths.packages, name), 'utf8')) as StoredPackage);
      } catch {
        // A record a power cut cut short: its upload never answered, so nobody knows its id.
      }
    }
    return stored.sort((a, b) => b.uploadedAt - a.uploadedAt);
  }

  find(id: string): StoredPackage | null {
    return this.list().find((p) => p.id === id) ?? null;
  }

  /**
   * Writes the binary of package `id` to `target`, verifying the whole package again on the way:
   * the file sat on disk since its upload, and what runs next must be exactly what was signed.
   */
  async extractBinary(id: string, target: string): Promise<FirmwareManifest> {
    const verifier = new FirmwareVerifier({ trustedKeys: this.deps.trustedKeys, arch: runningArch() ?? undefined });
    try {
      await pipeline(createReadStream(join(this.deps.paths.packages, `${id}.fw`)), verifying(verifier, true), createWriteStream(target, { mode: 0o700 }));
      return verifier.finish();
    } catch (err) {
      rmSync(target, { force: true });
      if (err instanceof FirmwareRejection) throw refusal(err);
      if (isOutOfSpace(err)) throw diskFullError();
      throw err;
    }
  }
}
