/**
 * Rules of single fields that several resources share (the `error.field.*` texts): required,
 * pattern, maximum length, business and device names, visible text, organization sort. The server checks these
 * with its schemas (server/contract/validation.ts limits); forms check them with these functions.
 */
import type { ErrorKey } from '../errors.ts';
import { isInt32, numberOf } from '../numbers.ts';
import { NAME_MAX, NAME_PATTERN, VISIBLE_TEXT_PATTERN } from '../validation.ts';
import { isBlank, problem, type Problem, type Rule } from './problem.ts';

export function requiredProblem(value: unknown): Problem | null {
  return isBlank(value) ? problem('error.field.required') : null;
}

/** Text matching a contract pattern, compiled in unicode mode as the server's validator does. Empty passes. */
export function patternProblem(pattern: string, key: ErrorKey): Rule {
  const re = new RegExp(pattern, 'u');
  return (value) => (!isBlank(value) && !re.test(String(value)) ? problem(key) : null);
}

/** Text of at most `max` characters. */
export function maxLengthProblem(max: number, key: ErrorKey): Rule {
  return (value) => (typeof value === 'string' && value.length > max ? problem(key) : null);
}

/**
 * Free text read as a name (alias, label, prefix): at most `max` characters, none of them a control
 * or bidirectional character (VISIBLE_TEXT_PATTERN). Empty passes. One key for both: the form
 * says the whole rule.
 */
export function visibleTextProblem(max: number, key: ErrorKey): Rule {
  const visible = patternProblem(VISIBLE_TEXT_PATTERN, key);
  const length = maxLengthProblem(max, key);
  return (value) => visible(value) ?? length(value);
}

const namePattern = patternProblem(NAME_PATTERN, 'error.field.name');
const nameLength = maxLengthProblem(NAME_MAX, 'error.field.name');

/** Business and device names: required, NAME_PATTERN, at most NAME_MAX characters. */
export function nameProblem(value: unknown): Problem | null {
  return requiredProblem(value) ?? namePattern(value) ?? nameLength(value);
}

/** Organization sort: an int32 integer (number or numeric text). Empty passes. */
export function sortProblem(value: unknown): Problem | null {
  if (isBlank(value)) return null;
  const n = numberOf(value);
  return n !== undefined && isInt32(n) ? null : problem('error.field.sort');
}
