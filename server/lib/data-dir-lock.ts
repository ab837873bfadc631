/**
 * One gateway process per data dir. Two would both migrate and write the same database, both
 * bind the same ports and both believe they own the devices' sessions.
 *
 * The lock is SQLite's: `<data-dir>/edge.lock` is a small database held with locking_mode
 * EXCLUSIVE, which SQLite keeps through an fcntl() lock on the file. The kernel drops that lock when
 * the process ends, however it ends, so a crash or a power cut leaves no stale lock to clean up; a
 * PID file would need a liveness check that a reused PID defeats (a restarted container's gateway
 * often gets the same small PID). SQLite also arbitrates between connections of one process, so
 * a second app built in the same process is refused as well. It is a file apart from edge.db:
 * the history worker, `edge-console reset-password` and tests open edge.db beside the running
 * gateway, and must keep doing so.
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { StartError } from './start-error.ts';

export const LOCK_FILE = 'edge.lock';

/** SQLITE_BUSY: another connection, in this process or another, holds the lock. */
const SQLITE_BUSY = 5;

export interface DataDirLock {
  release(): void;
}

/** Takes the data dir's lock or throws a StartError saying who holds it. */
export function lockDataDir(dataDir: string): DataDirLock {
  const file = join(dataDir, LOCK_FILE);
  let db: DatabaseSync | null = null;
  try {
    // No wait: a held lock means another gateway runs, not a moment's contention.
    db = new DatabaseSync(file, { timeout: 0 });
    // Journal in memory and no fsync: the file holds nothing worth keeping, only the lock matters,
    // and holding it creates no file besides edge.lock.
    db.exec('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT;');
  } catch (err) {
    db?.close();
    if ((err as { errcode?: number }).errcode === SQLITE_BUSY) {
      throw new StartError(`data dir ${dataDir} is in use by another edge-console process (${file} is locked); stop it first or give another --data-dir`);
    }
    throw new StartError(`cannot lock the data dir ${dataDir} with ${file}: ${(err as Error).message}`);
  }
  const held = db;
  return { release: () => held.close() };
}
