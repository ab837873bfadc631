import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../server/contract/user.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/error-body.ts';
import { authHeader, createAdmin, createUser, makeSignedInApp, signIn, type SignedIn } from '../helpers/session.ts';
import { ACCOUNT_FAILURE_LIMIT, FIRST_LOCK_MS } from '../../server/modules/auth/password-attempts.ts';

type Ready = TestApp & { admin: SignedIn };

function updateProfile(t: Ready, body: Record<string, unknown>, token = t.admin.token) {
  return t.app.inject({
    method: 'PUT',
    url: '/api/yt/user/center',
    headers: authHeader(token),
    payload: { id: t.admin.user.id, realName: 'Operator', ...body },
  });
}

function changePassword(t: Ready, body: Record<string, unknown>, token = t.admin.token, ip = '127.0.0.1') {
  return t.app.inject({
    method: 'POST',
    url: '/api/yt/user/reset',
    headers: { ...authHeader(token), 'accept-language': 'en-US' },
    payload: { userId: t.admin.user.id, password: t.admin.password, ...body },
    remoteAddress: ip,
  });
}

function meInfo(t: TestApp, token: string) {
  return t.app.inject({ method: 'GET', url: '/api/yt/user/me/info', headers: authHeader(token) });
}

describe('GET /api/yt/user/me/info', () => {
  it("answers the caller's own info even before a licence is installed", async () => {
    const t = await makeApp();
    const admin = await createAdmin(t);
    const res = await meInfo(t, admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      userId: admin.user.id,
      username: 'admin',
      realName: 'admin',
      phoneNumber: null,
      email: null,
      avatar: null,
      role: 'SYS_ADMIN',
      createTime: admin.user.createTime,
    });
  });
});

describe('PUT /api/yt/user/center', () => {
  it('answers code 99 while no licence is installed', async () => {
    const t = await makeApp();
    const admin = await createAdmin(t);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/yt/user/center',
      headers: authHeader(admin.token),
      payload: { id: admin.user.id, realName: 'Operator' },
    });
    expectError(res, 403, 99, 'error.license.required');
  });

  it('saves trimmed real name, phone and email, and the info call then shows them', async () => {
    const t = await makeSignedInApp();
    const res = await updateProfile(t, { realName: '  张三  ', phoneNumber: '13912345678', email: 'ops@example.com' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ realName: '张三', phoneNumber: '13912345678', email: 'ops@example.com' });
    expect((await meInfo(t, t.admin.token)).json()).toMatchObject({ realName: '张三', phoneNumber: '13912345678' });
  });

  it('stores empty phone and email as null', async () => {
    const t = await makeSignedInApp();
    await updateProfile(t, { phoneNumber: '13912345678', email: 'ops@example.com' });
    const res = await updateProfile(t, { phoneNumber: '', email: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ phoneNumber: null, email: null });
  });

  it('keeps username and createTime read-only even when the body carries them', async () => {
    const t = await makeSignedInApp();
    const res = await updateProfile(t, { username: 'hijacked', createTime: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ username: 'admin', createTime: t.admin.user.createTime });
    expect((await meInfo(t, t.admin.token)).json()).toMatchObject({ username: 'admin' });
  });

  it('refuses an empty real name with its own key and the field in details', async () => {
    const t = await makeSignedInApp();
    const body = expectError(await updateProfile(t, { realName: '' }), 400, 31, 'error.user.realNameRequired');
    expect(body.details).toContainEqual(expect.objectContaining({ field: 'body.realName', key: 'error.user.realNameRequired' }));
  });

  it('refuses a real name of only spaces', async () => {
    const t = await makeSignedInApp();
    const body = expectError(await updateProfile(t, { realName: '   ' }), 400, 31, 'error.user.realNameRequired');
    expect(body.details?.[0]?.field).toBe('body.realName');
  });

  it('refuses a real name of 33 characters and accepts one of 32', async () => {
    const t = await makeSignedInApp();
    expectError(await updateProfile(t, { realName: 'a'.repeat(33) }), 400, 31, 'error.user.realNameRequired');
    expect((await updateProfile(t, { realName: 'a'.repeat(32) })).statusCode).toBe(200);
  });

  it.each(['12912345678', '1391234567', '139123456789', 'phone'])('refuses the phone number %s', async (phone) => {
    const t = await makeSignedInApp();
    const body = expectError(await updateProfile(t, { phoneNumber: phone }), 400, 31, 'error.user.phoneInvalid');
    expect(body.details).toContainEqual(expect.objectContaining({ field: 'body.phoneNumber', key: 'error.user.phoneInvalid' }));
  });

  it('refuses a malformed email', async () => {
    const t = await makeSignedInApp();
    const body = expectError(await updateProfile(t, { email: 'ops.example.com' }), 400, 31, 'error.user.emailInvalid');
    expect(body.details).toContainEqual(expect.objectContaining({ field: 'body.email', key: 'error.user.emailInvalid' }));
  });

  it('refuses an email of 33 characters and accepts one of 32', async () => {
    const t = await makeSignedInApp();
    const at = '@example.com'; // 12 characters
    expectError(await updateProfile(t, { email: `${'a'.repeat(21)}${at}` }), 400, 31, 'error.user.emailInvalid');
    expect((await updateProfile(t, { email: `${'a'.repeat(20)}${at}` })).statusCode).toBe(200);
  });

  it('accepts an uploaded image as avatar and refuses a script address', async () => {
    const t = await makeSignedInApp();
    const avatar = `/api/yt/oss/files/${'a'.repeat(64)}.png`;
    expect((await updateProfile(t, { avatar })).json()).toMatchObject({ avatar });
    const body = expectError(await updateProfile(t, { avatar: 'javascript:alert(1)' }), 400, 31, 'error.validation');
    expect(body.details?.[0]?.field).toBe('body.avatar');
  });

  it("refuses to edit another user's profile with 403 code 20", async () => {
    const t = await makeSignedInApp();
    const other = await createUser(t, 'operator', 'Oper@tor2024', 'CUSTOMER_USER');
    expectError(await updateProfile(t, { id: other.id, realName: 'Changed' }), 403, 20, 'error.permissionDenied');
    const otherSession = await signIn(t.app, 'operator', 'Oper@tor2024');
    expect(((await meInfo(t, otherSession.token)).json() as UserInfo).realName).toBe('operator');
  });
});

describe('POST /api/yt/user/reset', () => {
  it('refuses a wrong current password with 400 code 30', async () => {
    const t = await makeSignedInApp();
    expectError(await changePassword(t, { password: 'Not#Mine123', resetPassword: 'New#Pass2024' }), 400, 30, 'error.password.wrongCurrent');
  });

  it(`refuses the current-password check after ${ACCOUNT_FAILURE_LIMIT} wrong ones with 429 and Retry-After, even the right one, from that address only`, async () => {
    const t = await makeSignedInApp();
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) {
      expectError(await changePassword(t, { password: 'Not#Mine123', resetPassword: 'New#Pass2024' }, t.admin.token, '10.3.3.3'), 400, 30, 'error.password.wrongCurrent');
    }
    const refused = await changePassword(t, { resetPassword: 'New#Pass2024' }, t.admin.token, '10.3.3.3');
    const body = expectError(refused, 429, 33, 'error.password.tooManyAttempts');
    expect(refused.headers['retry-after']).toBe(String(FIRST_LOCK_MS / 1000));
    expect(body.message).toBe(`Too many wrong passwords, please try again in ${FIRST_LOCK_MS / 1000} seconds`);
    expect((await changePassword(t, { resetPassword: 'New#Pass2024' }, t.admin.token, '10.4.4.4')).statusCode).toBe(200);
  });

  it('counts wrong current passwords and failed sign-ins of one account from one address together', async () => {
    const t = await makeSignedInApp();
    const login = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: t.admin.username, password }, remoteAddress: '10.5.5.5' });
    for (let i = 0; i < 2; i++) expect((await changePassword(t, { password: 'Not#Mine123', resetPassword: 'New#Pass2024' }, t.admin.token, '10.5.5.5')).statusCode).toBe(400);
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT - 2; i++) expect((await login('Wrong#Pass1')).statusCode).toBe(401);
    expectError(await login(t.admin.password), 429, 33, 'error.loginRateLimited');
  });

  it.each([
    ['of 7 characters', 'Ab1#xyz'],
    ['of 31 characters', `Ab1#${'x'.repeat(27)}`],
    ['without an upper-case letter', 'ab1#xyzw'],
    ['without a lower-case letter', 'AB1#XYZW'],
    ['without a digit', 'Abc#xyzw'],
    ['without a special character', 'Abc1xyzw'],
    ['with a space', 'Ab1# xyzw'],
  ])('refuses a new password %s with code 45', async (_, resetPassword) => {
    const t = await makeSignedInApp();
    const body = expectError(await changePassword(t, { resetPassword }), 400, 45, 'error.password.policy');
    expect(body.details?.[0]?.field).toBe('body.resetPassword');
  });

  it('refuses a new password equal to the current one', async () => {
    const t = await makeSignedInApp();
    expectError(await changePassword(t, { resetPassword: t.admin.password }), 400, 45, 'error.password.sameAsOld');
  });

  it("refuses to change another user's password with 403 code 20", async () => {
    const t = await makeSignedInApp();
    const other = await createUser(t, 'operator', 'Oper@tor2024', 'CUSTOMER_USER');
    expectError(
      await changePassword(t, { userId: other.id, password: 'Oper@tor2024', resetPassword: 'New#Pass2024' }),
      403, 20, 'error.permissionDenied',
    );
    expect((await signIn(t.app, 'operator', 'Oper@tor2024')).token).toBeTruthy();
  });

  it.each([
    ['exactly 8 characters', 'Ab1#xyzw'],
    ['exactly 30 characters', `Ab1#${'x'.repeat(26)}`],
  ])('accepts a new password of %s', async (_, resetPassword) => {
    const t = await makeSignedInApp();
    const res = await changePassword(t, { resetPassword });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await signIn(t.app, 'admin', resetPassword)).token).toBeTruthy();
  });

  it('ends every session: old access and refresh tokens and the old password stop working', async () => {
    const t = await makeSignedInApp();
    const other = await signIn(t.app, t.admin.username, t.admin.password);
    expect((await changePassword(t, { resetPassword: 'New#Pass2024' })).statusCode).toBe(200);
    for (const pair of [t.admin, other]) {
      expectError(await meInfo(t, pair.token), 401, 10, 'error.auth.tokenInvalid');
      const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/token', payload: { refreshToken: pair.refreshToken } });
      expectError(refreshed, 401, 10, 'error.auth.refreshInvalid');
    }
    const oldLogin = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'admin', password: t.admin.password } });
    expectError(oldLogin, 401, 10, 'error.auth.badCredentials');
    const fresh = await signIn(t.app, 'admin', 'New#Pass2024');
    expect((await meInfo(t, fresh.token)).statusCode).toBe(200);
  });
});
