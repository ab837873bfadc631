/**
 * A start-up failure the operator fixes outside the gateway (the data dir is in use, read-only, not
 * a directory, the disk is full). Its message names the path and the problem in one line; main.ts
 * prints it without a stack trace and exits 1.
 */
export class StartError extends Error {}

const fileProblems: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'not a directory',
  // mkdir of a path that exists as a file
  EEXIST: 'not a directory',
  EISDIR: 'is a directory',
  ENOENT: 'no such file or directory',
};

/**
 * What went wrong with a file call, in a few words with the system's code; SQLite's own messages
 * ("database or disk is full", "attempt to write a readonly database") are clear as they are.
 */
export function storageProblem(err: unknown): string {
  const e = err as { code?: unknown };
  if (typeof e.code === 'string' && fileProblems[e.code]) return `${fileProblems[e.code]} (${e.code})`;
  return err instanceof Error ? err.message : String(err);
}
