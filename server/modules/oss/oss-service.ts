/**
 * Image uploads: type checked by extension AND content signature (a renamed text file is not an
 * image), stored under `<dataDir>/oss/` by the sha256 of the content, never by the client's name.
 *
 * The store is bounded three ways, since every signed-in role may upload: an upload that would take
 * free space below the disk floor (`--min-free-disk-mb`) is refused like telemetry is (507); each
 * user's files count against a quota; and a role that may not delete uploads (customers) keeps
 * only its avatar: a new upload releases its earlier ones, except the avatar its profile shows.
 * Each file records who uploaded it; only they, or a holder of `oss:manage`, delete it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, renameSync, rmSync, statfsSync, statSync, writeFileSync, type ReadStream } from 'node:fs';
import { extname, join } from 'node:path';
import { ErrorCode } from '../../contract/errors.ts';
import { OSS_FILE_NAME_PATTERN, type UploadResult } from '../../contract/oss.ts';
import { UPLOAD_MAX_BYTES } from '../../contract/validation.ts';
import { badImageType, contentIs, isImageExtension, type ImageExtension } from '../../lib/image-signature.ts';
import { roleHolds } from '../../contract/permissions.ts';
import type { Role } from '../../contract/user.ts';
import type { Db } from '../../db/sqlite.ts';
import { diskFullError } from '../../lib/disk-full.ts';
import { uploadFileRequired, uploadTooLarge } from '../../lib/upload.ts';
import { AppError } from '../../lib/app-error.ts';
import { OssFileRepository } from './oss-repository.ts';

/** Public URL prefix of stored files (the download route of server/contract/oss.ts). */
export const OSS_FILES_PREFIX = '/api/yt/oss/files/';

const mimeOf: Record<ImageExtension, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
};

const storedName = new RegExp(OSS_FILE_NAME_PATTERN);

/**
 * The stored name `deleteFilePath` designates: a `fileStaticUri` (with or without an origin) or a
 * bare stored name; null for anything else. Only names of the store's own form are accepted, so no
 * `..`, separator or encoded trick can reach a file outside `<dataDir>/oss/`.
 */
export function storedNameOf(deleteFilePath: string): string | null {
  let path = deleteFilePath;
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      return null;
    }
  }
  if (path.startsWith(OSS_FILES_PREFIX)) path = path.slice(OSS_FILES_PREFIX.length);
  return storedName.test(path) ? path : null;
}

export interface StoredFile {
  stream: ReadStream;
  mime: string;
  size: number;
}

/** Who uploads or deletes: the signed-in caller. */
export interface OssCaller {
  id: string;
  role: Role;
}

export interface OssServiceDeps {
  db: Db;
  dataDir: string;
  /** The disk floor (`--min-free-disk-mb`) an upload may not take free space below. */
  minFreeBytes: number;
  /** Bytes of uploads one user may hold. */
  quotaBytes: number;
  /** The stored name the user's profile shows as avatar, if any: kept when a customer uploads another. */
  avatarOf: (userId: string) => string | null;
}

/** Per-user upload quota unless tuning says otherwise. */
export const OSS_QUOTA_BYTES = 50 * 1024 * 1024;

export class OssService {
  private readonly files: OssFileRepository;
  private readonly dir: string;

  constructor(private readonly deps: OssServiceDeps) {
    this.files = new OssFileRepository(deps.db);
    this.dir = join(deps.dataDir, 'oss');
  }

  store(caller: OssCaller, filename: string, content: Buffer): UploadResult {
    if (content.length === 0) throw uploadFileRequired('file');
    if (content.length > UPLOAD_MAX_BYTES) throw uploadTooLarge();
    const ext = extname(filename).slice(1).toLowerCase();
    if (!isImageExtension(ext) || !contentIs(ext, content)) throw badImageType();

    const name = `${createHash('sha256').update(content).digest('hex')}.${ext}`;
    if (!this.files.isOwner(name, caller.id)) {
      if (!roleHolds(caller.role, 'oss:delete')) this.releaseAllButAvatar(caller.id);
      const quota = this.deps.quotaBytes;
      if (this.files.bytesOf(caller.id) + content.length > quota) {
        throw new AppError(ErrorCode.LIMIT_EXCEEDED, 'error.upload.quotaExceeded', { quota: `${Math.floor(quota / 1024 / 1024)} MB` }, { status: 507 });
      }
    }
    const path = join(this.dir, name);
    if (!existsSync(path)) this.writeFile(path, content);
    this.files.insertIfAbsent(name, content.length, mimeOf[ext]);
    this.files.addOwner(name, caller.id);
    return { fileStaticUri: `${OSS_FILES_PREFIX}${name}` };
  }

  /** Writes aside and renames, so a reader never sees half a file under the final name; never below the disk floor. */
  private writeFile(path: string, content: Buffer): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const disk = statfsSync(this.dir);
    if (disk.bavail * disk.bsize - content.length < this.deps.minFreeBytes) throw diskFullError();
    const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      writeFileSync(temp, content, { mode: 0o600 });
      renameSync(temp, path);
    } catch (err) {
      rmSync(temp, { force: true });
      throw err; // ENOSPC becomes the disk-full 507 in the error handler
    }
  }

  /** A customer's earlier uploads, but for the avatar their profile shows. */
  private releaseAllButAvatar(userId: string): void {
    const avatar = this.deps.avatarOf(userId);
    for (const name of this.files.filesOf(userId)) {
      if (name !== avatar) this.release(name, userId);
    }
  }

  /** Drops `userId`'s hold on a file; the file goes when nobody holds it any more. */
  private release(name: string, userId: string): void {
    this.files.removeOwner(name, userId);
    if (this.files.ownerCount(name) === 0) this.deleteFile(name);
  }

  private deleteFile(name: string): void {
    this.files.delete(name);
    rmSync(join(this.dir, name), { force: true });
  }

  /** The stored file, or a 404 error when it was never uploaded (or has gone from disk). */
  open(name: string): StoredFile {
    const row = this.files.findById(name);
    const path = join(this.dir, name);
    if (!row || !existsSync(path)) throw new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.notFound');
    return { stream: createReadStream(path), mime: row.mime, size: statSync(path).size };
  }

  /**
   * Deletes an uploaded file: 400 when the path names no file of the store, 404 when it is not
   * there, 403 unless the caller uploaded it or holds `oss:manage`. An uploader who is not the
   * only one releases their hold; the file stays for the others.
   */
  remove(caller: OssCaller, deleteFilePath: string): void {
    const name = storedNameOf(deleteFilePath);
    if (name === null) {
      throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.upload.notStored', {}, {
        details: [{ field: 'querystring.deleteFilePath', key: 'error.upload.notStored', message: 'is not a file of the upload store' }],
      });
    }
    const known = this.files.findById(name) !== undefined;
    if (!known && !existsSync(join(this.dir, name))) throw new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.notFound');
    if (roleHolds(caller.role, 'oss:manage')) this.deleteFile(name);
    else if (this.files.isOwner(name, caller.id)) this.release(name, caller.id);
    else throw new AppError(ErrorCode.PERMISSION_DENIED, 'error.upload.notOwner', {}, { status: 403 });
  }
}
