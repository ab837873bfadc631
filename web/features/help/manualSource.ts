/**
 * The offline manual's text in a language: locales/<lang>/manual.md, bundled by the web build as
 * text (scripts/build.ts, loader `.md`) into one lazily loaded chunk per language, so the manual
 * ships inside the binary and costs the login page nothing.
 */
import type { Language } from '../../../server/contract/languages.ts';

export function loadManual(lng: Language): Promise<string> {
  // esbuild turns this template into one chunk per locales/<lang>/manual.md file.
  return import(`../../../locales/${lng}/manual.md`).then((mod: { default: string }) => mod.default);
}
