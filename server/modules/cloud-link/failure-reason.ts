/**
 * Why a cloud event FAILED, stored as its error key and parameters (JSON) so the list shows it in
 * the reader's language.
 */
import type { ErrorKey } from '../../contract/errors.ts';
import type { Language } from '../../contract/languages.ts';
import { translate } from '../../lib/messages.ts';

export function failureReason(key: ErrorKey, params: Record<string, string | number> = {}): string {
  return JSON.stringify({ key, params });
}

export function reasonText(stored: string, lang: Language): string {
  try {
    const { key, params } = JSON.parse(stored) as { key: string; params: Record<string, string | number> };
    return translate(lang, key, params);
  } catch {
    return stored;
  }
}
