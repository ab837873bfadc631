/**
 * Moves the staged history values (migration 0014) into the series-keyed ts_history, oldest
 * first, up to `MOVE_CHUNK` per transaction: a kill at any point leaves each value staged or moved,
 * never both or neither (tests/integration/history-staging-crash.test.ts). The writer starts a move
 * at half a chunk (telemetry-writer.ts, `moveRows`), so a move is normally one transaction that
 * empties the table: every further split rewrites the leaves of every series it touches again
 * (8,192 per transaction wrote twice the bytes of 32,768). The writer moves between two of its
 * commits, so a move never waits for the history worker's write lock; the compactor and retention
 * move everything first so that they see every value as a row.
 */
import type { StatementSync } from 'node:sqlite';
import { transaction, type Db } from '../../db/sqlite.ts';
import { writeSql } from './telemetry-write-sql.ts';

/** Staged values one move transaction takes at most: bounds a move after a long time without one. */
export const MOVE_CHUNK = 65_536;

export class StagingMover {
  private readonly endStatement: StatementSync;
  private readonly statements: StatementSync[];
  private readonly countStatement: StatementSync;

  constructor(private readonly db: Db) {
    this.endStatement = db.prepare(writeSql.moveEnd);
    this.statements = writeSql.moveStaged.map((sql) => db.prepare(sql));
    this.countStatement = db.prepare('SELECT COUNT(*) AS n FROM ts_staging');
  }

  /** Values staged now (a scan of the staging table, which the writer keeps small). */
  staged(): number {
    return (this.countStatement.get() as { n: number }).n;
  }

  /** Moves the oldest `chunk` staged values (or fewer: all there are); returns how many it moved. */
  move(chunk = MOVE_CHUNK): number {
    return transaction(this.db, () => {
      const { end, rest } = this.endStatement.get(chunk, chunk) as { end: number | null; rest: number | null };
      if (end === null) return 0;
      const [latest, history, clearUpTo, clearAll] = this.statements;
      latest!.run(end);
      history!.run(end);
      return Number((rest ? clearAll!.run() : clearUpTo!.run(end)).changes);
    });
  }

  /** Moves every staged value, a chunk per transaction. */
  moveAll(): number {
    let moved = 0;
    for (let n = MOVE_CHUNK; n === MOVE_CHUNK; moved += n) n = this.move();
    return moved;
  }
}
