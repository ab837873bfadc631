/**
 * Files that must survive a power cut whole: the firmware state, the factory-reset record and the
 * network apply journal are each read at the next start to decide what the gateway does, so a
 * half-written one would be worse than none.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Flushes a file (or, with 'r', a directory's entries) to the disk before what depends on it. */
export function fsyncPath(path: string, flags: 'r' | 'r+' = 'r+'): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces `file` with `content` so that after a power cut it holds the old or the new content,
 * whole: a temporary file, fsync, rename, then fsync of the directory (which makes the rename last).
 */
export function writeFileDurably(file: string, content: string | Buffer): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, content, { mode: 0o600 });
  fsyncPath(tmp);
  renameSync(tmp, file);
  fsyncPath(dirname(file), 'r');
}
