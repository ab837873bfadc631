/** Texts of failed calls for inline display (forms show them next to the fields they concern). */
import { i18n } from '../i18n/i18n.ts';
import { ApiError } from './api-client.ts';
import { errorI18nKey, fieldErrorKeys } from './field-errors.ts';

/** The localized message of a failed call; the spec's "Operation failed" for anything else (no call failed). */
export function errorMessage(err: unknown): string {
  return err instanceof ApiError ? err.message : i18n.t('http:operationFailed');
}

/** The text of a server error key (`error.user.phoneInvalid`), or the generic validation text. */
export function errorKeyText(key: string): string {
  const i18nKey = errorI18nKey(key);
  // Keys come from the server at run time, so they cannot be checked against the typed catalogue.
  return i18n.exists(i18nKey) ? i18n.t(i18nKey as 'errors:validation') : i18n.t('errors:validation');
}

/**
 * Server validation details of a failed call as Arco `setFields` input for the given form fields,
 * keeping each field's value; null when the error names none of them.
 */
export function serverFieldErrors<T extends object>(
  err: unknown,
  values: T,
  fields: readonly (keyof T & string)[],
): Record<string, { value: unknown; error: { message: string } }> | null {
  const byField = fieldErrorKeys(err instanceof ApiError ? err.body?.details : undefined, fields);
  const names = Object.keys(byField) as (keyof T & string)[];
  if (names.length === 0) return null;
  return Object.fromEntries(names.map((name) => [name, { value: values[name], error: { message: errorKeyText(byField[name]!) } }]));
}
