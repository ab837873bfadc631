/**
 * Arco form rules built from the contract's validation constants (server/contract/validation.ts),
 * with the server's own texts (`errors:field.*`), so a form refuses exactly what the server
 * refuses and says it the same way. Each check is a pure "problem" function answering the
 * `errors:field.*` key or null; `rule()` makes it an Arco rule. Build rules during render: the
 * texts follow the language.
 *
 * @example
 * <Form.Item field="name" rules={nameRules()}>…</Form.Item>
 * <Form.Item field="alias" rules={[rule(maxLengthProblem(ALIAS_MAX, 'alias'))]}>…</Form.Item>
 * <Form.Item field="sort" rules={[int32Rule()]}>…</Form.Item>
 */
import type { RulesProps } from '@arco-design/web-react/es/Form/interface';
import { NAME_MAX, NAME_PATTERN, SORT_MAX, SORT_MIN } from '../../server/contract/validation.ts';
import type fieldTexts from '../../locales/zh_CN/errors.json';
import { i18n } from '../i18n/i18n.ts';

export type FieldTextKey = keyof (typeof fieldTexts)['field'];
/** Why a value is refused (an `errors:field.*` key), or null. */
export type Problem = (value: unknown) => FieldTextKey | null;

/** The server's text for a field rule (`errors:field.<key>`). */
export function fieldText(key: FieldTextKey): string {
  return i18n.t(`errors:field.${key}`);
}

function blank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** An Arco rule from a problem function. */
export function rule(problem: Problem): RulesProps {
  return {
    validator: (value: unknown, cb) => {
      const key = problem(value);
      cb(key ? fieldText(key) : undefined);
    },
  };
}

export const requiredProblem: Problem = (value) => (blank(value) ? 'required' : null);

/** Required; a text of only spaces counts as empty. A message of the form's own replaces the server's. */
export function requiredRule(message?: string): RulesProps {
  return message ? { validator: (value: unknown, cb) => cb(blank(value) ? message : undefined) } : rule(requiredProblem);
}

/** A contract pattern (the server compiles patterns in unicode mode too). Empty passes. */
export function patternProblem(pattern: string, key: FieldTextKey): Problem {
  const re = new RegExp(pattern, 'u');
  return (value) => (!blank(value) && !re.test(String(value)) ? key : null);
}

export function maxLengthProblem(max: number, key: FieldTextKey): Problem {
  return (value) => (typeof value === 'string' && value.length > max ? key : null);
}

export function maxLengthRule(max: number, key: FieldTextKey): RulesProps {
  return rule(maxLengthProblem(max, key));
}

/** Business and device names: required, NAME_PATTERN, at most NAME_MAX characters. */
export const nameProblem: Problem = (value) =>
  requiredProblem(value) ?? patternProblem(NAME_PATTERN, 'name')(value) ?? maxLengthProblem(NAME_MAX, 'name')(value);

export function nameRules(): RulesProps[] {
  return [rule(nameProblem)];
}

/** An integer between `min` and `max`; empty passes. */
export function integerProblem(key: FieldTextKey, min: number, max: number): Problem {
  return (value) => {
    if (blank(value)) return null;
    const n = typeof value === 'number' ? value : Number(String(value).trim());
    return Number.isInteger(n) && n >= min && n <= max ? null : key;
  };
}

/** Organization sort: an int32 integer. */
export const int32Problem: Problem = integerProblem('sort', SORT_MIN, SORT_MAX);

export function int32Rule(): RulesProps {
  return rule(int32Problem);
}
