/**
 * Notices the database file being deleted or replaced under a running gateway (an `rm -rf` of the
 * data dir, a botched copy, a cleaning script). SQLite keeps writing to the open, now nameless,
 * file: every acknowledgement after that would vanish at the next restart. So once the path no
 * longer names the file the gateway opened, writes are refused (`lost`) and, after the writes in
 * flight have had time to commit, a copy of the open database is written back under its name
 * (`VACUUM INTO`): what was acknowledged is there after a restart. The console keeps reading.
 */
import { existsSync, statSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { ErrorCode } from '../contract/errors.ts';
import type { Db } from '../db/sqlite.ts';
import { AppError } from './app-error.ts';
import type { Announce } from './event-bus.ts';

declare module './event-bus.ts' {
  interface Events {
    /**
     * A copy of the open database is about to be written (VACUUM INTO: a firmware update's copy
     * for a rollback, this watch's copy of a lost file). Heard synchronously: what lives beside the
     * database file (the telemetry staging ring) is folded into it first, so the copy is whole.
     */
    'database.copying': { reason: 'firmware' | 'recovery' };
  }
}

export interface DatabaseFileWatchOptions {
  /** How often the path is looked at (a stat: cheap, but not per message). */
  checkMs: number;
  /** How long after the loss the copy is written: the group commit of writes in flight ends well within it. */
  settleMs: number;
}

declare module '../module.ts' {
  interface Tuning {
    databaseFile?: Partial<DatabaseFileWatchOptions>;
  }
}

export const databaseFileWatchDefaults: DatabaseFileWatchOptions = { checkMs: 5_000, settleMs: 1_000 };

/** A write refused because the database file is gone (HTTP 503; the MQTT reason is in mqtt-reason-codes.ts). */
export class DatabaseLostRefusal extends AppError {
  constructor() {
    super(ErrorCode.DATABASE, 'error.storage.databaseLost', {}, { status: 503 });
  }
}

/** The identity of a file: the device and inode a stat of its path gives, or null when there is none. */
function identity(file: string): string | null {
  try {
    const s = statSync(file);
    return `${s.dev}:${s.ino}`;
  } catch {
    return null;
  }
}

export class DatabaseFileWatch {
  /** Read by every write path that must not be acknowledged into a file that is gone. */
  lost = false;
  /** Where the open database was copied back to, once it was. */
  restoredTo: string | null = null;
  private readonly opened: string | null;
  private readonly options: DatabaseFileWatchOptions;
  private timer: NodeJS.Timeout | null = null;

  private readonly file: string;
  private readonly db: Db;
  private readonly log: FastifyBaseLogger;
  private readonly announce: Announce | null;

  /** `file`: the path `db` was opened from. */
  constructor(deps: { file: string; db: Db; log: FastifyBaseLogger; announce?: Announce; options?: Partial<DatabaseFileWatchOptions> }) {
    this.file = deps.file;
    this.announce = deps.announce ?? null;
    this.db = deps.db;
    this.log = deps.log;
    this.options = { ...databaseFileWatchDefaults, ...deps.options };
    this.opened = identity(deps.file);
  }

  start(): void {
    this.timer = setInterval(() => this.check(), this.options.checkMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Looks at the path now: true once the file the gateway opened is no longer there. */
  check(): boolean {
    if (this.lost || this.opened === null) return this.lost;
    if (identity(this.file) === this.opened) return false;
    this.lost = true;
    this.log.error({ file: this.file }, 'the database file was deleted or replaced while the gateway runs: writes are refused, a copy of the open database will be written back');
    setTimeout(() => this.restore(), this.options.settleMs).unref();
    return true;
  }

  /**
   * Writes the open database back under its name; when something else now has that name (the
   * file was replaced, not deleted) it is left alone and the copy goes beside it.
   */
  private restore(): void {
    const target = existsSync(this.file) ? `${this.file}.recovered-${Date.now()}` : this.file;
    try {
      this.announce?.('database.copying', { reason: 'recovery' });
      this.db.exec(`VACUUM INTO '${target.replaceAll("'", "''")}'`);
      this.restoredTo = target;
      this.log.error({ file: target }, 'the open database was written back: restart the gateway to go on with it');
    } catch (err) {
      this.log.error({ err, file: target }, 'the open database could not be written back: what it holds is lost when the gateway stops');
    }
  }
}
