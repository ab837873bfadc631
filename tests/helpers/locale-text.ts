/**
 * The console's own texts for e2e assertions, read from locales/, so a spec asserts what
 * the user reads in either language without copying strings that could drift from the UI.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../../scripts/build.ts';
import type { Language } from '../../server/contract/languages.ts';

const cache = new Map<string, Record<string, unknown>>();

function namespace(lang: Language, ns: string): Record<string, unknown> {
  const file = join(root, 'locales', lang, `${ns}.json`);
  let data = cache.get(file);
  if (!data) {
    data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    cache.set(file, data);
  }
  return data;
}

/**
 * `text('en_US', 'guide:cloud.tooLong', { max: 128 })`; throws on a key that does not exist. A
 * numeric `count` picks the plural form as i18next does (`key_one`, `key_other`).
 */
export function text(lang: Language, key: string, params: Record<string, string | number> = {}): string {
  const [ns, path] = key.split(':') as [string, string | undefined];
  if (!path) throw new Error(`"${key}" has no namespace (ns:key)`);
  const parts = path.split('.');
  const last = parts.pop()!;
  let parent: unknown = namespace(lang, ns);
  for (const part of parts) parent = (parent as Record<string, unknown> | undefined)?.[part];
  const forms = parent as Record<string, unknown> | undefined;
  let node = forms?.[last];
  if (node === undefined && typeof params.count === 'number') {
    const form = new Intl.PluralRules(lang.replace('_', '-')).select(params.count);
    node = forms?.[`${last}_${form}`] ?? forms?.[`${last}_other`];
  }
  if (typeof node !== 'string') throw new Error(`no text ${lang}/${key}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
