/**
 * What every rule in this folder answers, and how rules read what a client or a form sent. A rule
 * is a pure function: null when the value passes, else a problem naming the errors.json text that
 * says why. The server puts problems in an error body's `details` with the field they concern
 * (server/lib/field-errors.ts); the console shows the same text beside the field
 * (web/lib/form-rules.ts). Where the server checks with code, that code calls these rules; where a
 * schema checks, the rule says the same as the schema (tests/web/form-rules.test.ts and the other
 * rule tests compare them).
 */
import type { ErrorKey } from '../errors.ts';

/** Why a value is refused: the key of the text, and the values that text names. */
export interface Problem {
  key: ErrorKey;
  params?: Record<string, string | number>;
}

/** A rule on one value. */
export type Rule = (value: unknown) => Problem | null;

export function problem(key: ErrorKey, params?: Record<string, string | number>): Problem {
  return params ? { key, params } : { key };
}

/** Left out as the server sees it: undefined, null or empty text (forms send empty inputs as ''). */
export function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** Left out as a form sees it: also text of only white space. */
export function isBlank(value: unknown): boolean {
  return isAbsent(value) || (typeof value === 'string' && value.trim() === '');
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text of 1 to `max` characters once trimmed, trimmed; undefined for anything else. */
export function textWithin(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text.length >= 1 && text.length <= max ? text : undefined;
}

/**
 * Whether an entry before `index` of `values` has the same trimmed text as `value` (the later of two
 * equal entries is the one refused).
 */
export function repeatsEarlier(value: unknown, index: number, values: readonly unknown[]): boolean {
  const text = typeof value === 'string' ? value.trim() : '';
  return text !== '' && values.some((other, i) => i < index && typeof other === 'string' && other.trim() === text);
}
