/**
 * The firmware files under `<data-dir>/ota/`: each upload streams to `<id>.partial` through its
 * checksum and is renamed to `<id>.bin` once it is whole, so a `.bin` is always a complete file.
 * Chunks are read by offset (devices ask for one chunk at a time, never the whole file at once).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, createWriteStream, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ErrorCode } from '../../contract/errors.ts';
import { OTA_MAX_BYTES, type OtaChecksumAlgorithm } from '../../contract/ota.ts';
import { AppError } from '../../lib/app-error.ts';
import { diskFullError, isOutOfSpace } from '../../lib/disk-full.ts';
import { checksumOf } from './ota-checksum.ts';

export interface ReceivedFile {
  id: string;
  size: number;
  checksum: string;
}

export function otaTooLarge(): AppError {
  return new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.upload.tooLarge', { size: `${OTA_MAX_BYTES / 1024 / 1024} MB` }, { status: 413 });
}

export class OtaFiles {
  constructor(
    private readonly dir: string,
    private readonly minFreeBytes: number,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Leftovers of uploads a power cut or a dropped connection interrupted.
    for (const name of readdirSync(dir)) if (name.endsWith('.partial')) rmSync(join(dir, name), { force: true });
  }

  /** Streams `body` to disk, computing its checksum; only a whole file stays. */
  async receive(body: Readable, algorithm: OtaChecksumAlgorithm, declaredBytes: number, wasTruncated: () => boolean): Promise<ReceivedFile> {
    if (declaredBytes > OTA_MAX_BYTES + 64 * 1024) throw otaTooLarge();
    const disk = statfsSync(this.dir);
    if (disk.bavail * disk.bsize - declaredBytes < this.minFreeBytes) throw diskFullError();
    const id = randomBytes(8).toString('hex');
    const partial = join(this.dir, `${id}.partial`);
    const sum = checksumOf(algorithm);
    let size = 0;
    const counting = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        sum.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(body, counting, createWriteStream(partial, { mode: 0o600 }));
      if (wasTruncated()) throw otaTooLarge();
      if (size === 0) throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.upload.fileRequired', {});
      renameSync(partial, this.pathOf(id));
      return { id, size, checksum: sum.digest() };
    } catch (err) {
      rmSync(partial, { force: true });
      if (err instanceof AppError) throw err;
      if (isOutOfSpace(err)) throw diskFullError();
      throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.ota.truncated', {});
    }
  }

  read(id: string, offset: number, length: number): Buffer {
    const fd = openSync(this.pathOf(id), 'r');
    try {
      const out = Buffer.alloc(length);
      const got = readSync(fd, out, 0, length, offset);
      return got === length ? out : out.subarray(0, got);
    } finally {
      closeSync(fd);
    }
  }

  remove(id: string): void {
    rmSync(this.pathOf(id), { force: true });
  }

  /** Removes the files of packages no longer stored (their product was deleted). */
  prune(kept: ReadonlySet<string>): void {
    for (const name of readdirSync(this.dir)) if (name.endsWith('.bin') && !kept.has(name.slice(0, -4))) rmSync(join(this.dir, name), { force: true });
  }

  private pathOf(id: string): string {
    return join(this.dir, `${id}.bin`);
  }
}
