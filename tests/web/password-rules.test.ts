import { describe, expect, it } from 'vitest';
import {
  confirmProblem,
  newPasswordRules,
  passwordChecks,
  passwordProblem,
} from '../../web/features/auth/passwordRules.ts';

describe('password rules shared by the wizard and the change-password form', () => {
  it('accepts a password with upper and lower case, a digit and a special character', () => {
    expect(passwordProblem('Edge#2024')).toBeNull();
  });

  it('calls an empty password empty, not a rule failure', () => {
    expect(passwordProblem('')).toBe('empty');
    expect(passwordProblem(undefined)).toBe('empty');
  });

  it.each([
    ['a password without a digit', 'Edge#Edge'],
    ['a password without an upper-case letter', 'edge#2024'],
    ['a password without a lower-case letter', 'EDGE#2024'],
    ['a password without a special character', 'Edge2024x'],
    ['a password of 7 characters', 'Ed#2024'],
    ['a password of 31 characters', `Ed#1${'x'.repeat(27)}`],
    ['a password with a space', 'Edge #2024'],
  ])('refuses %s', (_, value) => {
    expect(passwordProblem(value)).toBe('rule');
  });

  it('accepts 8 and 30 characters, the ends of the allowed length', () => {
    expect(passwordProblem('Ed#1xxxx')).toBeNull();
    expect(passwordProblem(`Ed#1${'x'.repeat(26)}`)).toBeNull();
  });

  it('shows every checklist item met exactly when the policy is met', () => {
    const samples = ['', 'a', 'Edge#2024', 'edge#2024', 'EDGE#2024', 'Edge2024x', 'Ed#2024', 'Edge #2024',
      `Ed#1${'x'.repeat(27)}`, 'Пароль#1A', 'Ab1!Ab1!', '\tAb1!Ab1!'];
    for (const value of samples) {
      const allMet = Object.values(passwordChecks(value)).every(Boolean);
      expect(allMet, value).toBe(passwordProblem(value) === null);
    }
  });

  it('names the missing criteria of a weak password', () => {
    expect(passwordChecks('edge')).toEqual({ length: false, upper: false, lower: true, digit: false, special: false });
  });

  it('says the confirmation differs, or is empty', () => {
    expect(confirmProblem('Edge#2024', 'Edge#2025')).toBe('differ');
    expect(confirmProblem('Edge#2024', '')).toBe('empty');
    expect(confirmProblem('Edge#2024', 'Edge#2024')).toBeNull();
  });

  it('gives the form the localized message of the problem', () => {
    const [rule] = newPasswordRules({ empty: 'password empty', rule: 'password rule' });
    const seen: unknown[] = [];
    rule!.validator!('weak', (msg) => seen.push(msg));
    rule!.validator!('', (msg) => seen.push(msg));
    rule!.validator!('Edge#2024', (msg) => seen.push(msg));
    expect(seen).toEqual(['password rule', 'password empty', undefined]);
  });
});
