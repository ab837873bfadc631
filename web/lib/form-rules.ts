/**
 * Arco form rules built from the contract's validation constants (server/contract/validation.ts),
 * with the server's own texts (`errors:field.*`), so a form refuses exactly what the server
 * refuses and says it the same way. Build them during render: the texts follow the language.
 *
 * @example
 * <Form.Item field="name" rules={nameRules()}>…</Form.Item>
 * <Form.Item field="alias" rules={[maxLengthRule(ALIAS_MAX, 'alias')]}>…</Form.Item>
 * <Form.Item field="sort" rules={[int32Rule()]}>…</Form.Item>
 */
import type { RulesProps } from '@arco-design/web-react/es/Form/interface';
import { NAME_MAX, NAME_PATTERN, SORT_MAX, SORT_MIN } from '../../server/contract/validation.ts';
import type fieldTexts from '../i18n/locales/zh_CN/errors.json';
import { i18n } from '../i18n/i18n.ts';

export type FieldTextKey = keyof (typeof fieldTexts)['field'];

/** The server's text for a field rule (`errors:field.<key>`). */
export function fieldText(key: FieldTextKey): string {
  return i18n.t(`errors:field.${key}`);
}

function blank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Required; a text of only spaces counts as empty. */
export function requiredRule(message: string = fieldText('required')): RulesProps {
  return { validator: (value: unknown, cb) => cb(blank(value) ? message : undefined) };
}

/** A regular expression from the contract (the server compiles patterns in unicode mode too). */
export function patternRule(pattern: string, key: FieldTextKey): RulesProps {
  const re = new RegExp(pattern, 'u');
  return { validator: (value: unknown, cb) => cb(!blank(value) && !re.test(String(value)) ? fieldText(key) : undefined) };
}

export function maxLengthRule(max: number, key: FieldTextKey): RulesProps {
  return { validator: (value: unknown, cb) => cb(typeof value === 'string' && value.length > max ? fieldText(key) : undefined) };
}

/** Business and device names: required, NAME_PATTERN, at most NAME_MAX characters. */
export function nameRules(): RulesProps[] {
  return [requiredRule(), patternRule(NAME_PATTERN, 'name'), maxLengthRule(NAME_MAX, 'name')];
}

/** An integer between `min` and `max` (int32 by default: organization sort). Empty passes. */
export function integerRule(key: FieldTextKey = 'sort', min = SORT_MIN, max = SORT_MAX): RulesProps {
  return {
    validator: (value: unknown, cb) => {
      if (blank(value)) return cb();
      const n = typeof value === 'number' ? value : Number(String(value).trim());
      cb(Number.isInteger(n) && n >= min && n <= max ? undefined : fieldText(key));
    },
  };
}

export function int32Rule(): RulesProps {
  return integerRule('sort', SORT_MIN, SORT_MAX);
}
