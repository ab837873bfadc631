/**
 * Locale parity: zh_CN and en_US must have the same namespaces, the same keys, the same
 * {{placeholders}} per key, and namespaces.ts must have one line per namespace file, naming it.
 * Run by `npm test` (scripts/test-all.sh) and by tests/web/i18n-parity.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { languages } from '../../server/contract/languages.ts';

type Tree = { [k: string]: string | Tree };

function flatten(tree: Tree, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else flatten(v, key, out);
  }
  return out;
}

const placeholders = (s: string): string => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1] ?? '').sort().join(',');

/**
 * namespaces.ts against the files: a line `<ns>: texts<typeof import('…/locales/zh_CN/<ns>.json')>()`
 * per file, and no line whose file is another namespace's or missing.
 */
function namespaceListProblems(source: string, files: readonly string[]): string[] {
  const problems: string[] = [];
  const listed = [...source.matchAll(/^\s*(\w+): texts<typeof import\('[^']*\/locales\/zh_CN\/(\w+)\.json'\)>\(\),/gm)];
  for (const [, ns, file] of listed) {
    if (ns !== file) problems.push(`namespaces.ts types ${ns} by ${file}.json`);
    else if (!files.includes(ns!)) problems.push(`namespaces.ts lists ${ns}, which has no JSON file`);
  }
  for (const ns of files) if (!listed.some(([, name]) => name === ns)) problems.push(`namespaces.ts does not list ${ns}`);
  return problems;
}

/** Every difference between the languages under `localesDir`; with `namespacesFile`, also that list against the files. */
export function findParityProblems(localesDir: string, namespacesFile?: string): string[] {
  const problems: string[] = [];
  const [base, ...others] = languages;
  const namespacesOf = (lng: string): string[] =>
    readdirSync(join(localesDir, lng)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
  const load = (lng: string, ns: string): Map<string, string> =>
    flatten(JSON.parse(readFileSync(join(localesDir, lng, `${ns}.json`), 'utf8')) as Tree);

  const baseNs = namespacesOf(base);
  if (namespacesFile) problems.push(...namespaceListProblems(readFileSync(namespacesFile, 'utf8'), baseNs));
  for (const lng of others) {
    const ns = namespacesOf(lng);
    for (const n of baseNs) if (!ns.includes(n)) problems.push(`namespace ${n} exists in ${base} but not in ${lng}`);
    for (const n of ns) if (!baseNs.includes(n)) problems.push(`namespace ${n} exists in ${lng} but not in ${base}`);
    for (const n of baseNs.filter((x) => ns.includes(x))) {
      const a = load(base, n);
      const b = load(lng, n);
      for (const [k, v] of a) {
        const w = b.get(k);
        if (w === undefined) problems.push(`${n}:${k} missing in ${lng}`);
        else if (placeholders(v) !== placeholders(w)) problems.push(`${n}:${k} placeholders differ between ${base} and ${lng}`);
        else if (w.trim() === '') problems.push(`${n}:${k} is empty in ${lng}`);
      }
      for (const k of b.keys()) if (!a.has(k)) problems.push(`${n}:${k} missing in ${base}`);
    }
  }
  return problems;
}

export const localesDir = fileURLToPath(new URL('../../locales', import.meta.url));
export const namespacesFile = fileURLToPath(new URL('./namespaces.ts', import.meta.url));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problems = findParityProblems(localesDir, namespacesFile);
  if (problems.length) {
    process.stderr.write(`i18n parity: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write('i18n parity: zh_CN and en_US match\n');
}
