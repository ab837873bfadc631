/**
 * Password rules (server/contract/validation.ts), shared by the activation wizard (administrator
 * password) and the change-password form. The policy is the contract's pattern, so the form refuses
 * exactly what the server refuses; the per-criterion checks only drive the checklist shown while
 * typing.
 */
import type { RulesProps } from '@arco-design/web-react/es/Form/interface';
import { PASSWORD_MAX, PASSWORD_MIN, PASSWORD_PATTERN } from '../../../server/contract/validation.ts';

const policy = new RegExp(PASSWORD_PATTERN);

export type PasswordProblem = 'empty' | 'rule';
export type ConfirmProblem = 'empty' | 'differ';

/** Why a new password is refused, or null when it meets the policy. */
export function passwordProblem(value: string | null | undefined): PasswordProblem | null {
  if (!value) return 'empty';
  return policy.test(value) ? null : 'rule';
}

/** Why a confirmation is refused, or null when it repeats the password exactly. */
export function confirmProblem(password: string | null | undefined, confirm: string | null | undefined): ConfirmProblem | null {
  if (!confirm) return 'empty';
  return confirm === (password ?? '') ? null : 'differ';
}

export interface PasswordChecks {
  /** 8–30 characters and no white space. */
  length: boolean;
  upper: boolean;
  lower: boolean;
  digit: boolean;
  special: boolean;
}
export type PasswordCheck = keyof PasswordChecks;
export const passwordCheckOrder: readonly PasswordCheck[] = ['length', 'upper', 'lower', 'digit', 'special'];

/** Each criterion of the policy on its own; all true exactly when `passwordProblem` is null. */
export function passwordChecks(value: string): PasswordChecks {
  return {
    length: value.length >= PASSWORD_MIN && value.length <= PASSWORD_MAX && !/\s/.test(value),
    upper: /[A-Z]/.test(value),
    lower: /[a-z]/.test(value),
    digit: /\d/.test(value),
    special: /[^A-Za-z0-9\s]/.test(value),
  };
}

/** Arco rules for a new-password field; `messages` are the localized texts. */
export function newPasswordRules(messages: Record<PasswordProblem, string>): RulesProps[] {
  return [
    {
      validator: (value: string | undefined, callback) => {
        const problem = passwordProblem(value);
        callback(problem ? messages[problem] : undefined);
      },
    },
  ];
}

/** Arco rules for a confirmation field that must repeat the value `password()` returns. */
export function confirmPasswordRules(password: () => string | undefined, messages: Record<ConfirmProblem, string>): RulesProps[] {
  return [
    {
      validator: (value: string | undefined, callback) => {
        const problem = confirmProblem(password(), value);
        callback(problem ? messages[problem] : undefined);
      },
    },
  ];
}
