/**
 * Moves the staged history values (migration 0013) into the series-keyed ts_history, all of them
 * in one transaction: a kill at any point leaves them staged or moved, never both or neither
 * (tests/integration/history-staging-crash.test.ts). The writer calls it between its commits
 * (telemetry-writer.ts), so it never waits for the history worker's write lock; the compactor and
 * retention call it first so that they see every value as a row.
 */
import type { StatementSync } from 'node:sqlite';
import { transaction, type Db } from '../../db/sqlite.ts';
import { writeSql } from './telemetry-write-sql.ts';

export class StagingMover {
  private readonly statements: StatementSync[];
  private readonly countStatement: StatementSync;

  constructor(private readonly db: Db) {
    this.statements = writeSql.moveStaged.map((sql) => db.prepare(sql));
    this.countStatement = db.prepare('SELECT COUNT(*) AS n FROM ts_staging');
  }

  /** Values staged now (a scan of the staging table, which the writer keeps small). */
  staged(): number {
    return (this.countStatement.get() as { n: number }).n;
  }

  /** Moves every staged value into ts_history; returns how many there were. */
  move(): number {
    return transaction(this.db, () => {
      const [latest, history, clear] = this.statements;
      latest!.run();
      const moved = Number(history!.run().changes);
      clear!.run();
      return moved;
    });
  }
}
