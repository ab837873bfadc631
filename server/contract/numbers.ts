/**
 * What counts as a number for the contract's rules (server/contract/rules/), read the same way by
 * the server and by the console's forms.
 */
import { INT32_MAX, INT32_MIN } from './validation.ts';

/** A number, or numeric text (forms send text; files from other platforms write specs as text). */
export function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

export function isInt32(n: number): boolean {
  return Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX;
}
