/**
 * Locale parity: zh_CN and en_US must have the same namespaces, the same keys, the same
 * {{placeholders}} per key, and each language's index.ts must list every namespace file.
 * Run by `npm test` (scripts/test-all.sh) and by tests/web/i18n-parity.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { languages } from './lang.ts';

type Tree = { [k: string]: string | Tree };

function flatten(tree: Tree, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else flatten(v, key, out);
  }
  return out;
}

const placeholders = (s: string): string => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort().join(',');

export function findParityProblems(localesDir: string, runtimeList?: string): string[] {
  const problems: string[] = [];
  const [base, ...others] = languages;
  const namespacesOf = (lng: string): string[] =>
    readdirSync(join(localesDir, lng)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
  const load = (lng: string, ns: string): Map<string, string> =>
    flatten(JSON.parse(readFileSync(join(localesDir, lng, `${ns}.json`), 'utf8')) as Tree);

  if (runtimeList && existsSync(runtimeList)) {
    const listed = readFileSync(runtimeList, 'utf8');
    for (const ns of namespacesOf(base)) if (!listed.includes(`'${ns}'`)) problems.push(`namespaces.ts does not list ${ns}`);
  }
  for (const lng of languages) {
    const index = readFileSync(join(localesDir, lng, 'index.ts'), 'utf8');
    for (const ns of namespacesOf(lng)) {
      if (!index.includes(`'./${ns}.json'`)) problems.push(`${lng}/index.ts does not import ${ns}.json`);
    }
  }
  const baseNs = namespacesOf(base);
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
