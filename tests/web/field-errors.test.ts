import { describe, expect, it } from 'vitest';
import { errorI18nKey, fieldErrorKeys } from '../../web/lib/field-errors.ts';

describe('server validation details on form fields', () => {
  it('puts each detail on the form field it names', () => {
    const details = [
      { field: 'body.phoneNumber', key: 'error.user.phoneInvalid', message: 'must match pattern' },
      { field: 'body.email', key: 'error.user.emailInvalid', message: 'must match pattern' },
    ];
    expect(fieldErrorKeys(details, ['realName', 'phoneNumber', 'email'])).toEqual({
      phoneNumber: 'error.user.phoneInvalid',
      email: 'error.user.emailInvalid',
    });
  });

  it('ignores fields the form does not have and keeps the first detail of a field', () => {
    const details = [
      { field: 'body.id', key: 'error.validation', message: 'x' },
      { field: 'body.email', key: 'error.user.emailInvalid', message: 'x' },
      { field: 'body.email', message: 'y' },
    ];
    expect(fieldErrorKeys(details, ['email'])).toEqual({ email: 'error.user.emailInvalid' });
  });

  it('falls back to the generic validation key when a detail has none', () => {
    expect(fieldErrorKeys([{ field: 'body.realName', message: 'x' }], ['realName'])).toEqual({ realName: 'error.validation' });
  });

  it('maps an error key to the errors namespace', () => {
    expect(errorI18nKey('error.password.wrongCurrent')).toBe('errors:password.wrongCurrent');
  });
});
