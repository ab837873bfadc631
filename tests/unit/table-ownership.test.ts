import { describe, expect, it } from 'vitest';
import { tableCrossings, tableOwners, tablesNamedIn } from '../../scripts/lib/table-ownership.ts';

describe('table ownership', () => {
  it('gives every table one owning module, read from the migrations', () => {
    const owners = new Map(tableOwners().map((o) => [o.table, o.owner]));
    expect(owners.get('alarm')).toBe('alarm');
    expect(owners.get('event_record')).toBe('telemetry');
    expect(owners.get('user')).toBe('auth');
    expect(owners.get('organization')).toBe('organization');
  });

  it('finds no SQL in one module naming a table another module owns', () => {
    const found = tableCrossings().map((c) => `${c.file}:${c.line} names ${c.table}, a table of the ${c.owner} module`);
    expect(found).toEqual([]);
  });

  it('sees table names in string and template literals, across lines and substitutions, and not in comments', () => {
    const source = [
      "// SELECT * FROM user: a comment is not SQL",
      "const a = 'SELECT id FROM user';",
      'const b = `SELECT d.*, ${columns}',
      '  FROM device d',
      '  LEFT JOIN organization o ON o.id = ${id}`;',
      'const c = "DELETE FROM notification WHERE id = ?";',
      "const d = 'update device later';",
    ].join('\n');
    expect(tablesNamedIn(source)).toEqual([
      { table: 'user', line: 2 },
      { table: 'device', line: 4 },
      { table: 'organization', line: 5 },
      { table: 'notification', line: 6 },
    ]);
  });
});
