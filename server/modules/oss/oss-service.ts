/**
 * Image uploads: type checked by extension AND content signature (a renamed text file is not an
 * image), stored under `<dataDir>/oss/` by the sha256 of the content, never by the client's name.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync, type ReadStream } from 'node:fs';
import { extname, join } from 'node:path';
import { ErrorCode } from '../../contract/errors.ts';
import { OSS_FILE_NAME_PATTERN, type UploadResult } from '../../contract/oss.ts';
import { AVATAR_EXTENSIONS, UPLOAD_MAX_BYTES } from '../../contract/validation.ts';
import type { Db } from '../../db/sqlite.ts';
import { uploadFileRequired, uploadTooLarge } from '../../lib/upload.ts';
import { AppError } from '../../lib/app-error.ts';
import { OssFileRepository } from './oss-repository.ts';

type ImageExtension = (typeof AVATAR_EXTENSIONS)[number];

/** Public URL prefix of stored files (the download route of server/contract/oss.ts). */
export const OSS_FILES_PREFIX = '/api/yt/oss/files/';

const mimeOf: Record<ImageExtension, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
};

/** Leading bytes each format must start with. */
const signatures: Record<ImageExtension, Buffer[]> = {
  png: [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  jpg: [Buffer.from([0xff, 0xd8, 0xff])],
  jpeg: [Buffer.from([0xff, 0xd8, 0xff])],
  gif: [Buffer.from('GIF87a', 'latin1'), Buffer.from('GIF89a', 'latin1')],
};

function isImageExtension(ext: string): ext is ImageExtension {
  return (AVATAR_EXTENSIONS as readonly string[]).includes(ext);
}

function badType(): AppError {
  return new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.upload.badType', { types: AVATAR_EXTENSIONS.join(', ') });
}


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

export class OssService {
  private readonly files: OssFileRepository;
  private readonly dir: string;

  constructor(db: Db, dataDir: string) {
    this.files = new OssFileRepository(db);
    this.dir = join(dataDir, 'oss');
  }

  store(filename: string, content: Buffer): UploadResult {
    if (content.length === 0) throw uploadFileRequired('file');
    if (content.length > UPLOAD_MAX_BYTES) throw uploadTooLarge();
    const ext = extname(filename).slice(1).toLowerCase();
    if (!isImageExtension(ext)) throw badType();
    if (!signatures[ext].some((sig) => content.subarray(0, sig.length).equals(sig))) throw badType();

    const name = `${createHash('sha256').update(content).digest('hex')}.${ext}`;
    const path = join(this.dir, name);
    if (!existsSync(path)) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      // Written aside and renamed, so a reader never sees half a file under the final name.
      const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      writeFileSync(temp, content, { mode: 0o600 });
      renameSync(temp, path);
    }
    this.files.insertIfAbsent(name, content.length, mimeOf[ext]);
    return { fileStaticUri: `${OSS_FILES_PREFIX}${name}` };
  }

  /** The stored file, or a 404 error when it was never uploaded (or has gone from disk). */
  open(name: string): StoredFile {
    const row = this.files.findById(name);
    const path = join(this.dir, name);
    if (!row || !existsSync(path)) throw new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.notFound');
    return { stream: createReadStream(path), mime: row.mime, size: statSync(path).size };
  }

  /** Deletes an uploaded file: 400 when the path names no file of the store, 404 when it is not there. */
  remove(deleteFilePath: string): void {
    const name = storedNameOf(deleteFilePath);
    if (name === null) {
      throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.upload.notStored', {}, {
        details: [{ field: 'querystring.deleteFilePath', key: 'error.upload.notStored', message: 'is not a file of the upload store' }],
      });
    }
    const path = join(this.dir, name);
    const known = this.files.delete(name);
    if (!known && !existsSync(path)) throw new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.notFound');
    rmSync(path, { force: true });
  }
}
