/**
 * Server validation `details` (`[{ field: 'body.phoneNumber', key: 'error.user.phoneInvalid' }]`)
 * turned into per-field messages of a form, and error keys into i18n keys of the errors namespace.
 */
import type { ErrorBody } from '../../server/contract/errors.ts';

type Detail = NonNullable<ErrorBody['details']>[number];

/** `error.user.phoneInvalid` → `errors:user.phoneInvalid` (errors.json holds the part after "error."). */
export function errorI18nKey(key: string): string {
  return `errors:${key.replace(/^error\./, '')}`;
}

/**
 * Field name → error key, for the fields the form has. The first detail of a field wins; details
 * without a key fall back to the generic validation key.
 */
export function fieldErrorKeys(details: readonly Detail[] | undefined, fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const detail of details ?? []) {
    const name = detail.field.replace(/^body\./, '').split('.')[0] ?? '';
    if (!fields.includes(name) || name in out) continue;
    out[name] = detail.key ?? 'error.validation';
  }
  return out;
}
