/**
 * The console's side of the contract's rules (server/contract/rules/): a rule answers a problem (an
 * errors.json key and the values its text names) or null, and these make it an Arco form rule that
 * shows the server's own text for that problem, so a form refuses what the server refuses and says
 * it the same way. Build rules during render: the texts follow the language.
 *
 * @example
 * <Form.Item field="name" rules={nameRules()}>…</Form.Item>
 * <Form.Item field="alias" rules={[trimmedRule(aliasProblem)]}>…</Form.Item>
 * <Form.Item field="unit" rules={[problemRule(unitProblem)]}>…</Form.Item>
 */
import type { RulesProps } from '@arco-design/web-react/es/Form/interface';
import type fieldTexts from '../../locales/zh_CN/errors.json';
import { maxLengthProblem, nameProblem, requiredProblem, sortProblem } from '../../server/contract/rules/field.ts';
import { isBlank, type Problem } from '../../server/contract/rules/problem.ts';
import { i18n } from '../i18n/i18n.ts';
import { errorI18nKey } from './field-errors.ts';

/** A check of a field's value: a contract rule, or several chained with `??`. */
export type Check = (value: unknown) => Problem | null;

/** The shared field texts (`errors:field.<key>`). */
export type FieldTextKey = keyof (typeof fieldTexts)['field'];

/**
 * The text of a problem in the current language, its values filled in. Also takes a server detail's
 * key without its `error.` prefix (tslImport.ts lists refusals that way).
 */
export function problemText(problem: Problem | { key: string; params?: Problem['params'] }): string {
  // The key is one of the rule's, known only at run time; errors.json holds every one of them.
  return i18n.t(errorI18nKey(problem.key) as 'errors:validation', problem.params ?? {});
}

export function fieldText(key: FieldTextKey): string {
  return problemText({ key: `error.field.${key}` });
}

/** An Arco rule running `check` on the field's value. */
export function problemRule(check: Check): RulesProps {
  return {
    validator: (value: unknown, callback: (error?: string) => void) => {
      const found = check(value);
      callback(found ? problemText(found) : undefined);
    },
  };
}

/** As `problemRule`, on the text the form sends: trimmed (empty for null). */
export function trimmedRule(check: Check): RulesProps {
  return problemRule((value) => check(value === undefined || value === null ? '' : typeof value === 'string' ? value.trim() : value));
}

/** Required; a text of only spaces counts as empty. A message of the form's own replaces the server's. */
export function requiredRule(message?: string): RulesProps {
  return message ? { validator: (value: unknown, cb) => cb(isBlank(value) ? message : undefined) } : problemRule(requiredProblem);
}

export function maxLengthRule(max: number, key: FieldTextKey): RulesProps {
  return problemRule(maxLengthProblem(max, `error.field.${key}`));
}

/** Business and device names: required, NAME_PATTERN, at most NAME_MAX characters. */
export function nameRules(): RulesProps[] {
  return [problemRule(nameProblem)];
}

/** Organization sort: an int32 integer. */
export function int32Rule(): RulesProps {
  return problemRule(sortProblem);
}
