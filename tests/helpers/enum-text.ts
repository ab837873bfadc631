/**
 * Untranslated enumeration values on screen ("GATEWAY", "GREATER", "ACTIVE_UNACK"): a value is an
 * enumeration value when some locale names it by an UPPER_CASE key with a text that is not the value
 * itself (product:deviceType.GATEWAY = 网关设备). Values whose text is the value (MQTT, TCP, JSON)
 * are proper names and may show as they are.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { root } from '../../scripts/build.ts';
import { languages } from '../../server/contract/languages.ts';
import type { Ui } from './browser.ts';

const ENUM_KEY = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

function collect(node: unknown, into: Set<string>, proper: Set<string>): void {
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (typeof value === 'string' && ENUM_KEY.test(key) && key.length > 2) (value.trim() === key ? proper : into).add(key);
    else collect(value, into, proper);
  }
}

let cached: ReadonlySet<string> | null = null;

/** Every enumeration value the locales translate into other words. */
export function translatedEnumValues(): ReadonlySet<string> {
  if (cached) return cached;
  const values = new Set<string>();
  const proper = new Set<string>();
  for (const lang of languages) {
    const dir = join(root, 'locales', lang);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) collect(JSON.parse(readFileSync(join(dir, file), 'utf8')), values, proper);
  }
  for (const name of proper) values.delete(name);
  cached = values;
  return values;
}

/** Fails with the raw enumeration values visible on the page (its text as the user sees it). */
export async function expectNoRawEnums(ui: Ui, where: string): Promise<void> {
  const shown = await ui.page.evaluate(() => document.body.innerText);
  const known = translatedEnumValues();
  const raw = [...new Set(shown.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\b/g) ?? [])].filter((word) => known.has(word));
  expect(raw, `untranslated enumeration values on ${where}`).toEqual([]);
}
