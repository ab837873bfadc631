/**
 * Opening the data dir at start: create it, check it can be written, take the one-process lock
 * (data-dir-lock.ts), open and migrate the database, load the secrets. Whatever fails stops the
 * start with a StartError naming the path and the problem, not a stack trace.
 *
 * A data dir that cannot be written stops the start rather than running without storage: nearly
 * every console action and every telemetry message writes, and a console that looked up while
 * acknowledging nothing would hide the fault.
 */
import { closeSync, mkdirSync, openSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type Db } from '../db/sqlite.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { carryOutFactoryReset, type FactoryResetRequest } from './factory-reset.ts';
import { loadSecrets, type Secrets } from './secrets.ts';
import { StartError, storageProblem } from './start-error.ts';

export const DATABASE_FILE = 'edge.db';

/** Created and removed at every start: an existing database can still be opened in a read-only dir. */
const PROBE_FILE = '.write-test';

export interface DataDir {
  db: Db;
  secrets: Secrets;
  /** A factory reset carried out by this opening (server/lib/factory-reset.ts), else null. */
  factoryReset: FactoryResetRequest | null;
  /** Closes the database, then releases the lock. */
  close(): void;
}

function checkWritable(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new StartError(`cannot create the data dir ${dataDir}: ${storageProblem(err)}`);
  }
  const probe = join(dataDir, PROBE_FILE);
  try {
    closeSync(openSync(probe, 'w', 0o600));
    unlinkSync(probe);
  } catch (err) {
    throw new StartError(`data dir ${dataDir} is not writable: ${storageProblem(err)}`);
  }
}

export function openDataDir(dataDir: string, migrations: Parameters<typeof openDatabase>[1]): DataDir {
  checkWritable(dataDir);
  const lock = lockDataDir(dataDir);
  const file = join(dataDir, DATABASE_FILE);
  let factoryReset: FactoryResetRequest | null;
  try {
    factoryReset = carryOutFactoryReset(dataDir);
  } catch (err) {
    lock.release();
    throw new StartError(`cannot finish the factory reset in ${dataDir}: ${storageProblem(err)}`);
  }
  let db: Db;
  try {
    db = openDatabase(file, migrations);
  } catch (err) {
    lock.release();
    throw new StartError(`cannot open the database ${file}: ${storageProblem(err)}`);
  }
  let secrets: Secrets;
  try {
    secrets = loadSecrets(dataDir);
  } catch (err) {
    db.close();
    lock.release();
    throw new StartError(`cannot load the secrets in ${dataDir}: ${storageProblem(err)}`);
  }
  return {
    db,
    secrets,
    factoryReset,
    close: () => {
      db.close();
      lock.release();
    },
  };
}
