/** Thing-model checks (thingModelRules.ts) as Arco form rules, with the server's texts from errors.json. */
import type { RulesProps } from '@arco-design/web-react/es/Form/interface';
import { i18n } from '../../i18n/i18n.ts';
import type { RuleProblem } from './thingModelRules.ts';

/** The text of a check's answer (`thingModel.unit` → errors.json's `thingModel.unit`). */
export function problemText(problem: NonNullable<RuleProblem>): string {
  // Keys are chosen at run time by the checks; errors.json holds every one of them.
  return i18n.t(`errors:${problem.key}` as 'errors:validation', problem.params ?? {});
}

/** An Arco rule running `check` on the field's value (build it during render: texts follow the language). */
export function problemRule(check: (value: unknown) => RuleProblem): RulesProps {
  return {
    validator: (value: unknown, callback: (error?: string) => void) => {
      const found = check(value);
      callback(found ? problemText(found) : undefined);
    },
  };
}
