/**
 * SQLite access: open with WAL, foreign keys and a busy timeout (the pragmas below), run
 * forward-only migrations, and a transaction helper. node:sqlite is synchronous; statements are
 * short, so this is fine on the loop.
 *
 * synchronous = FULL: in WAL mode NORMAL syncs the WAL only at checkpoints, so a power cut loses
 * the commits since the last one, and a device would have had its PUBACK for them. FULL syncs the
 * WAL at every COMMIT (one fdatasync per transaction, not per message: the telemetry writer
 * commits messages in batches). A process crash loses nothing under either.
 */
import { DatabaseSync, type StatementSync } from 'node:sqlite';

export type Db = DatabaseSync;

/** How many prepared statements the main connection keeps for reuse (least recently used out). */
export const STATEMENT_CACHE_SIZE = 128;

/**
 * Makes `db.prepare(sql)` hand back the statement it prepared for the same text before, while it
 * is among the last STATEMENT_CACHE_SIZE texts. Repositories prepare as they go; each statement is
 * native memory V8 does not see, freed only when its object is collected, so a request that runs
 * the same query per device (a 1,000-device batch: the device lookups of every `device.created`
 * listener) piled up tens of MB in the main malloc heap, which glibc does not give back
 * (docs/PERFORMANCE-FINDINGS.md). Reuse is safe here: node:sqlite resets a statement after each
 * run/get/all, nothing in server/ iterates one, a statement whose settings are changed leaves the cache
 * (ownOnceConfigured), and SQLite re-prepares a
 * statement whose schema changed.
 */
function cacheStatements(db: DatabaseSync): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, StatementSync>();
  db.prepare = (sql: string): StatementSync => {
    let statement = cache.get(sql);
    if (statement) cache.delete(sql);
    else {
      statement = prepare(sql);
      ownOnceConfigured(statement, () => {
        if (cache.get(sql) === statement) cache.delete(sql);
      });
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, statement);
    return statement;
  };
}

/**
 * A caller that changes a statement's settings (the staging mover reads its rows as arrays) takes
 * the statement out of the cache, so the next `prepare` of the same text gets one with the
 * defaults rather than the changed one.
 */
function ownOnceConfigured(statement: StatementSync, release: () => void): void {
  for (const setting of ['setReturnArrays', 'setReadBigInts', 'setAllowBareNamedParameters', 'setAllowUnknownNamedParameters'] as const) {
    const apply = statement[setting].bind(statement);
    statement[setting] = (enabled: boolean) => {
      release();
      apply(enabled);
    };
  }
}

/** Every connection's setting (see above); `unsynced` departs from it for one transaction. */
const SYNCHRONOUS = 'FULL';

/**
 * WAL pages after which a commit checkpoints (SQLite's default is 1,000: 4 MB). A checkpoint writes
 * every page changed since the last one once more, into the database file; the staging table's
 * pages are freed at each move and reused by the next appends (server/modules/telemetry/
 * staging-mover.ts), so the longer the WAL, the more of those rewrites a checkpoint folds into one.
 * docs/PERFORMANCE-FINDINGS.md ("Group commit, durability and what a message writes to disk") has the
 * bytes it saves and its costs: a WAL file of up to this many pages on disk, a longer pause for
 * the commit that checkpoints, and a longer replay after a crash. The history worker's connection
 * uses it too (server/modules/telemetry/history-worker.ts).
 */
export const WAL_AUTOCHECKPOINT_PAGES = 4000;

/** Opens `file` and applies those of `migrations` it has not applied yet (the app passes every module's). */
export function openDatabase(file: string, migrations: readonly { name: string; sql: string }[]): Db {
  const db = new DatabaseSync(file);
  // auto_vacuum first: it takes effect only before the first table exists (an older database is
  // switched once by VACUUM: server/modules/telemetry/history-budget.ts), so pruned history can
  // give its pages back to the file system.
  // Only asked of a new, empty file: on an existing one it changes nothing, yet SQLite may still
  // write the header for it, which fails on a full disk and would keep the gateway from starting
  // (and reading its history) until space is freed.
  const fresh = (db.prepare('SELECT count(*) AS n FROM sqlite_schema').get() as { n: number }).n === 0;
  if (fresh) db.exec('PRAGMA auto_vacuum = INCREMENTAL');
  db.exec(`
    PRAGMA journal_mode = WAL;
    PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES};
    PRAGMA synchronous = ${SYNCHRONOUS};
    PRAGMA foreign_keys = ON;
    PRAGMA busy_timeout = 5000;
  `);
  migrate(db, migrations);
  cacheStatements(db);
  return db;
}

function migrate(db: Db, list: readonly { name: string; sql: string }[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migration (id TEXT PRIMARY KEY, applied_time INTEGER NOT NULL)');
  const applied = new Set(
    (db.prepare('SELECT id FROM schema_migration').all() as { id: string }[]).map((r) => r.id),
  );
  for (const m of list) {
    if (applied.has(m.name)) continue;
    transaction(db, () => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migration (id, applied_time) VALUES (?, ?)').run(m.name, Date.now());
    });
  }
}

/**
 * Runs `fn` in one transaction; nested calls join the outer one. The error that ended it is the one
 * thrown: on SQLITE_FULL, SQLITE_IOERR or a trigger's RAISE(ROLLBACK) SQLite has already rolled
 * back, and a ROLLBACK of ours would only fail with "no transaction is active" and hide the cause.
 */
export function transaction<T>(db: Db, fn: () => T): T {
  if (db.isTransaction) return fn();
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (err) {
    if (db.isTransaction) {
      try {
        db.exec('ROLLBACK');
      } catch {
        // The original error says what went wrong; a failing ROLLBACK adds nothing to it.
      }
    }
    throw err;
  }
}

/**
 * Settings and licence writes must survive power loss. Every commit does (synchronous FULL,
 * above); the name keeps saying what these callers rely on.
 */
export function durably<T>(db: Db, fn: () => T): T {
  return transaction(db, fn);
}

/**
 * Runs `fn` in one transaction whose COMMIT does not wait for the disk (synchronous NORMAL for it:
 * in WAL mode the WAL is then synced at the next synced commit of any connection, or at a
 * checkpoint). A power cut may lose it, never corrupt the file; for what is rebuilt anyway, such
 * as the devices' connection states, which a start resets. An fsync held the event loop for up to
 * 170 ms on a busy disk while 10,000 devices reconnected (scripts/lib/bench-scale.ts). Inside a
 * caller's transaction `fn` joins it and the caller's setting holds (SQLite cannot change the
 * pragma inside a transaction).
 */
export function unsynced<T>(db: Db, fn: () => T): T {
  if (db.isTransaction) return fn();
  db.exec('PRAGMA synchronous = NORMAL');
  try {
    return transaction(db, fn);
  } finally {
    db.exec(`PRAGMA synchronous = ${SYNCHRONOUS}`);
  }
}
