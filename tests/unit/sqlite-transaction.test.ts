import { DatabaseSync } from 'node:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, transaction, unsynced } from '../../server/db/sqlite.ts';

/** A database that fills up after a few more pages, as a full disk does. */
function nearlyFullDatabase(): DatabaseSync {
  const db = new DatabaseSync(':memory:');
  db.exec('CREATE TABLE t (x BLOB)');
  const { page_count: pages } = db.prepare('PRAGMA page_count').get() as { page_count: number };
  db.exec(`PRAGMA max_page_count = ${pages + 2}`);
  return db;
}

function fill(db: DatabaseSync): void {
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  for (let i = 0; i < 100; i++) insert.run(new Uint8Array(3000));
}

describe('transaction()', () => {
  it('rethrows "database or disk is full" when SQLite has already rolled the transaction back itself', () => {
    const db = nearlyFullDatabase();
    let thrown: unknown;
    try {
      transaction(db, () => fill(db));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toMatch(/database or disk is full/);
    expect((thrown as { errcode?: number }).errcode).toBe(13);
    expect(db.isTransaction).toBe(false);
  });

  it("rethrows a trigger's RAISE(ROLLBACK) error, and the connection commits the next transaction", () => {
    const db = new DatabaseSync(':memory:');
    db.exec(`CREATE TABLE t (x INTEGER);
      CREATE TRIGGER refuse BEFORE INSERT ON t WHEN NEW.x < 0 BEGIN SELECT RAISE(ROLLBACK, 'negative values are refused'); END;`);
    expect(() => transaction(db, () => db.prepare('INSERT INTO t VALUES (-1)').run())).toThrow(/negative values are refused/);
    transaction(db, () => db.prepare('INSERT INTO t VALUES (1)').run());
    expect(db.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 1 });
  });

  it('still rolls back and rethrows when the callback throws while the transaction is open', () => {
    const db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE t (x INTEGER)');
    const refusal = new Error('refused by the rules');
    expect(() =>
      transaction(db, () => {
        db.prepare('INSERT INTO t VALUES (1)').run();
        throw refusal;
      }),
    ).toThrow(refusal);
    expect(db.isTransaction).toBe(false);
    expect(db.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 0 });
  });
});

describe('unsynced()', () => {
  const synchronous = (db: DatabaseSync): number => (db.prepare('PRAGMA synchronous').get() as { synchronous: number }).synchronous;
  const FULL = 2;
  const NORMAL = 1;

  it('commits with synchronous NORMAL and gives the connection back its FULL, also when the transaction fails', () => {
    const dir = mkdtempSync(join(tmpdir(), 'unsynced-'));
    const db = openDatabase(join(dir, 'db.sqlite'), []);
    try {
      db.exec('CREATE TABLE t (x INTEGER)');
      expect(synchronous(db)).toBe(FULL);
      const seen = unsynced(db, () => {
        db.prepare('INSERT INTO t VALUES (1)').run();
        return synchronous(db);
      });
      expect(seen).toBe(NORMAL);
      expect(synchronous(db)).toBe(FULL);
      expect(() => unsynced(db, () => db.exec('INSERT INTO nowhere VALUES (1)'))).toThrow(/no such table/);
      expect(synchronous(db)).toBe(FULL);
      expect(db.isTransaction).toBe(false);
      // Within a caller's transaction it joins, and the caller's durability holds.
      transaction(db, () => unsynced(db, () => db.prepare('INSERT INTO t VALUES (2)').run()));
      expect(synchronous(db)).toBe(FULL);
      expect(db.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 2 });
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
