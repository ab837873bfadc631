/**
 * Which module owns which table, and SQL in one module that names another module's table
 * (docs/ARCHITECTURE.md, "Table ownership"). A table belongs to the module whose migration creates
 * it (`CREATE TABLE` in server/modules/<module>/migrations/*.sql), apart from the tables that
 * `HANDED_OVER` lists; only that module's code may name it in SQL, every other module asks its
 * service or listens to its events. `tests/unit/table-ownership.test.ts` fails on a crossing;
 * `npx tsx scripts/table-map.ts` prints the map as a markdown table.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const MODULES_DIR = 'server/modules';

/**
 * Tables created by a shipped migration of one module on behalf of another. The two foundation
 * migrations predate the split into modules, and a shipped migration is never edited or split
 * (schema_migration records it by name), so the handover is written here. Each entry must still
 * match the module whose migration creates the table, so this list cannot go stale unnoticed.
 */
export const HANDED_OVER: readonly { table: string; createdBy: string; owner: string }[] = [
  { table: 'oss_file', createdBy: 'auth', owner: 'oss' },
  { table: 'organization', createdBy: 'device', owner: 'organization' },
  { table: 'product_category', createdBy: 'device', owner: 'category' },
  { table: 'device_profile', createdBy: 'device', owner: 'product' },
  { table: 'message_stat', createdBy: 'command', owner: 'workbench' },
];

export interface TableOwner {
  table: string;
  owner: string;
  /** The migration that creates the table, relative to the repository root. */
  migration: string;
}

export interface Crossing {
  /** The file, relative to the repository root. */
  file: string;
  line: number;
  table: string;
  owner: string;
}

const CREATE_TABLE = /\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?["`]?([A-Za-z_][A-Za-z0-9_]*)/gi;
// Upper-case keywords only: SQL in this code base is written that way, and English text in a
// message ("update device …") must not count as SQL.
const TABLE_REFERENCE = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+["`]?([A-Za-z_][A-Za-z0-9_]*)/g;

function modules(root: string): string[] {
  return readdirSync(join(root, MODULES_DIR), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** Every table with the module that owns it, read from the migrations. */
export function tableOwners(root = '.'): TableOwner[] {
  const created = new Map<string, TableOwner>();
  for (const module of modules(root)) {
    const dir = join(MODULES_DIR, module, 'migrations');
    let files: string[];
    try {
      files = readdirSync(join(root, dir)).filter((f) => f.endsWith('.sql'));
    } catch {
      continue;
    }
    for (const file of files.sort()) {
      const migration = `${dir}/${file}`;
      for (const [, table] of readFileSync(join(root, migration), 'utf8').matchAll(CREATE_TABLE)) {
        const name = table!.toLowerCase();
        const earlier = created.get(name);
        if (earlier && earlier.owner !== module) throw new Error(`table ${name} is created by ${earlier.migration} and ${migration}`);
        if (!earlier) created.set(name, { table: name, owner: module, migration });
      }
    }
  }
  for (const h of HANDED_OVER) {
    const entry = created.get(h.table);
    if (!entry || entry.owner !== h.createdBy) {
      throw new Error(`HANDED_OVER says ${h.createdBy} creates ${h.table}, the migrations say ${entry?.owner ?? 'nobody'}`);
    }
    created.set(h.table, { ...entry, owner: h.owner });
  }
  return [...created.values()].sort((a, b) => (a.table < b.table ? -1 : 1));
}

/** The string and template literals of TypeScript source, with the line each starts on; comments skipped. */
export function literalsOf(source: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let line = 1;
  let i = 0;
  // Brace depth of each template literal we are inside a `${ … }` of.
  const templates: number[] = [];
  let depth = 0;
  const readTemplate = (): void => {
    // At the character after the opening backtick or after the closing `}` of a substitution.
    const start = line;
    let text = '';
    while (i < source.length) {
      const c = source[i]!;
      if (c === '\\') {
        text += source.slice(i, i + 2);
        if (source[i + 1] === '\n') line++;
        i += 2;
        continue;
      }
      if (c === '`') {
        i++;
        out.push({ text, line: start });
        return;
      }
      if (c === '$' && source[i + 1] === '{') {
        i += 2;
        // The substitution stands in for a value; keep a placeholder so keywords around it stay apart.
        out.push({ text: `${text} ?`, line: start });
        templates.push(depth);
        depth++;
        return;
      }
      if (c === '\n') line++;
      text += c;
      i++;
    }
  };
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? source.length : end + 2;
      for (let k = i; k < stop; k++) if (source[k] === '\n') line++;
      i = stop;
    } else if (c === "'" || c === '"') {
      const start = line;
      let text = '';
      i++;
      while (i < source.length && source[i] !== c && source[i] !== '\n') {
        if (source[i] === '\\') {
          text += source.slice(i, i + 2);
          i += 2;
        } else text += source[i++];
      }
      i++;
      out.push({ text, line: start });
    } else if (c === '`') {
      i++;
      readTemplate();
    } else if (c === '{') {
      depth++;
      i++;
    } else if (c === '}') {
      depth--;
      i++;
      if (templates.length && templates[templates.length - 1] === depth) {
        templates.pop();
        readTemplate();
      }
    } else i++;
  }
  return out;
}

/** The tables one piece of TypeScript source names in SQL, with their lines. */
export function tablesNamedIn(source: string): { table: string; line: number }[] {
  const found: { table: string; line: number }[] = [];
  for (const { text, line } of literalsOf(source)) {
    for (const match of text.matchAll(TABLE_REFERENCE)) {
      const before = text.slice(0, match.index);
      found.push({ table: match[1]!.toLowerCase(), line: line + (before.match(/\n/g)?.length ?? 0) });
    }
  }
  return found;
}

function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((d) => {
    const path = `${dir}/${d.name}`;
    if (d.isDirectory()) return d.name === 'migrations' ? [] : sourceFiles(root, path);
    return /\.tsx?$/.test(d.name) && !d.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** SQL in a module's code (its migrations aside) that names a table another module owns. */
export function tableCrossings(root = '.', owners: readonly TableOwner[] = tableOwners(root)): Crossing[] {
  const ownerOf = new Map(owners.map((o) => [o.table, o.owner]));
  const crossings: Crossing[] = [];
  for (const module of modules(root)) {
    for (const file of sourceFiles(root, `${MODULES_DIR}/${module}`)) {
      for (const { table, line } of tablesNamedIn(readFileSync(join(root, file), 'utf8'))) {
        const owner = ownerOf.get(table);
        if (owner && owner !== module) crossings.push({ file, line, table, owner });
      }
    }
  }
  return crossings;
}

/** The map as a markdown table, for docs/ARCHITECTURE.md. */
export function renderTableMap(owners: readonly TableOwner[] = tableOwners()): string {
  return [
    '| table | module | created by |',
    '|---|---|---|',
    ...owners.map((o) => `| \`${o.table}\` | ${o.owner} | ${o.migration.replace(`${MODULES_DIR}/`, '')} |`),
  ].join('\n');
}
