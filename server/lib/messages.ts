/**
 * Server-side translation of error keys. The texts are the locale files the console reads too
 * (locales/<lang>/errors.json), so the message in an error body and the text the UI shows for the
 * same key never differ.
 */
import zhErrors from '../../locales/zh_CN/errors.json' with { type: 'json' };
import enErrors from '../../locales/en_US/errors.json' with { type: 'json' };
import { DEFAULT_LANGUAGE, type Language } from '../contract/languages.ts';

type Tree = { [k: string]: string | Tree };
const catalogs: Record<Language, Tree> = { zh_CN: zhErrors as Tree, en_US: enErrors as Tree };

/** zh_CN is the default and fallback language. */
export function langFromAcceptLanguage(header: string | undefined): Language {
  if (!header) return DEFAULT_LANGUAGE;
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase() ?? '';
    if (tag.startsWith('zh')) return 'zh_CN';
    if (tag.startsWith('en')) return 'en_US';
  }
  return DEFAULT_LANGUAGE;
}

function lookup(tree: Tree, key: string): string | undefined {
  // Keys look like "error.auth.badCredentials"; the file holds the part after "error.".
  let node: string | Tree | undefined = tree;
  for (const part of key.replace(/^error\./, '').split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function translate(lang: Language, key: string, params: Record<string, string | number> = {}): string {
  const text = lookup(catalogs[lang], key) ?? lookup(catalogs[DEFAULT_LANGUAGE], key) ?? key;
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}
