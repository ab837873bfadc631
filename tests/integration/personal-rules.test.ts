/**
 * The spec's personal-feature rules (realName, phone, email, password, avatar) on the server, each
 * answered in the request's language with the locale's own text.
 */
import { describe, expect, it } from 'vitest';
import type { Language } from '../../server/contract/languages.ts';
import { acceptLanguage } from '../../server/contract/languages.ts';
import { userRoutes } from '../../server/contract/user.ts';
import { ContractClient, makeDeviceApp } from '../helpers/devices.ts';
import { text } from '../helpers/locale-text.ts';
import { multipart } from '../helpers/multipart.ts';

const languagesToCheck: Language[] = ['zh_CN', 'en_US'];

describe.each(languagesToCheck)('personal rules in %s', (lang) => {
  const profileCases: [string, Record<string, unknown>, string][] = [
    ['an empty real name', { realName: '' }, 'user.realNameRequired'],
    ['a real name of 33 characters', { realName: 'x'.repeat(33) }, 'user.realNameRequired'],
    ['a phone whose second digit is 2', { phoneNumber: '12912345678' }, 'user.phoneInvalid'],
    ['a phone of 10 digits', { phoneNumber: '1391234567' }, 'user.phoneInvalid'],
    ['a malformed email', { email: 'a@b' }, 'user.emailInvalid'],
    ['an email of 33 characters', { email: `${'a'.repeat(27)}@b.com` }, 'user.emailInvalid'],
  ];

  it.each(profileCases)('refuses %s', async (_, patch, key) => {
    const t = await makeDeviceApp();
    const me = await t.api.ok(userRoutes.me);
    const res = await t.api.call(userRoutes.updateProfile, { body: { id: me.userId, realName: 'Operator', ...patch }, lang: acceptLanguage[lang] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ key: `error.${key}`, message: text(lang, `errors:${key}`) });
  });

  it('refuses a weak new password and a wrong current one', async () => {
    const t = await makeDeviceApp();
    const me = await t.api.ok(userRoutes.me);
    const weak = await t.api.call(userRoutes.resetPassword, { body: { userId: me.userId, password: t.admin.password, resetPassword: 'abc' }, lang: acceptLanguage[lang] });
    expect(weak.json()).toMatchObject({ code: 45, message: text(lang, 'errors:password.policy') });
    const wrong = await t.api.call(userRoutes.resetPassword, { body: { userId: me.userId, password: 'Not#Mine2024', resetPassword: 'New#Pass2024' }, lang: acceptLanguage[lang] });
    expect(wrong.json()).toMatchObject({ message: text(lang, 'errors:password.wrongCurrent') });
  });

  it('refuses an avatar named .png whose content is text', async () => {
    const t = await makeDeviceApp();
    const body = multipart({ file: { filename: 'avatar.png', content: 'not a picture', contentType: 'image/png' } });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/yt/oss/upload',
      headers: { ...body.headers, authorization: `Bearer ${(t.api as ContractClient).token!}`, 'accept-language': acceptLanguage[lang] },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().key).toBe('error.upload.badType');
  });
});
