import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, STATEMENT_CACHE_SIZE, type Db } from '../../server/db/sqlite.ts';

const dirs: string[] = [];
const dbs: Db[] = [];

function open(): Db {
  const dir = mkdtempSync(join(tmpdir(), 'edge-stmt-cache-'));
  dirs.push(dir);
  const db = openDatabase(join(dir, 'edge.db'), [{ name: '0001-t', sql: 'CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)' }]);
  dbs.push(db);
  return db;
}

afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('openDatabase() statement reuse', () => {
  it('hands back the same statement for the same SQL text, with each call bound afresh', () => {
    const db = open();
    const insert = 'INSERT INTO t (id, name) VALUES (?, ?)';
    for (let id = 1; id <= 3; id++) db.prepare(insert).run(id, `n${id}`);
    expect(db.prepare(insert)).toBe(db.prepare(insert));
    const byId = 'SELECT name FROM t WHERE id = ?';
    expect(db.prepare(byId).get(2)).toEqual({ name: 'n2' });
    expect(db.prepare(byId).get(3)).toEqual({ name: 'n3' });
    expect(db.prepare('SELECT id FROM t ORDER BY id').all()).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('keeps only the most recently used texts', () => {
    const db = open();
    const first = db.prepare('SELECT 0 AS n');
    const kept = db.prepare('SELECT 1 AS n');
    for (let i = 2; i < STATEMENT_CACHE_SIZE; i++) db.prepare(`SELECT ${i} AS n`);
    expect(db.prepare('SELECT 0 AS n')).toBe(first); // used again: now the most recent
    db.prepare(`SELECT ${STATEMENT_CACHE_SIZE} AS n`); // pushes out the least recent, 'SELECT 1'
    expect(db.prepare('SELECT 1 AS n')).not.toBe(kept);
    expect(db.prepare('SELECT 1 AS n').get()).toEqual({ n: 1 });
  });

  it('runs a kept statement after the schema changed under it', () => {
    const db = open();
    db.prepare('INSERT INTO t (id, name) VALUES (?, ?)').run(1, 'a');
    expect(db.prepare('SELECT * FROM t').all()).toEqual([{ id: 1, name: 'a' }]);
    db.exec("ALTER TABLE t ADD COLUMN note TEXT NOT NULL DEFAULT 'x'");
    expect(db.prepare('SELECT * FROM t').all()).toEqual([{ id: 1, name: 'a', note: 'x' }]);
  });

  it('answers a statement whose run threw, reset, on its next use', () => {
    const db = open();
    const insert = 'INSERT INTO t (id, name) VALUES (?, ?)';
    db.prepare(insert).run(1, 'a');
    expect(() => db.prepare(insert).run(1, 'again')).toThrow(/UNIQUE/);
    db.prepare(insert).run(2, 'b');
    expect(db.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 2 });
  });
  it('gives a statement whose settings a caller changed to that caller alone', () => {
    const db = open();
    db.prepare('INSERT INTO t (id, name) VALUES (?, ?)').run(1, 'a');
    const text = 'SELECT id, name FROM t';
    const rowsAsArrays = db.prepare(text);
    rowsAsArrays.setReturnArrays(true);
    expect(rowsAsArrays.all()).toEqual([[1, 'a']]);
    expect(db.prepare(text)).not.toBe(rowsAsArrays);
    expect(db.prepare(text).all()).toEqual([{ id: 1, name: 'a' }]);
  });
});
