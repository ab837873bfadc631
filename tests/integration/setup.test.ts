import { describe, expect, it } from 'vitest';
import { cloudRoutes } from '../../server/contract/cloud.ts';
import { licenseRoutes, SETUP_CODE_HEADER, type SetupState } from '../../server/contract/license.ts';
import { platformRoutes } from '../../server/contract/platform.ts';
import { userRoutes } from '../../server/contract/user.ts';
import { SETUP_CODE_BACKOFF } from '../../server/plugins/access.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/error-body.ts';
import { issueLicense, testLicenseKeys } from '../helpers/license.ts';
import { authHeader, signIn } from '../helpers/session.ts';
import { activate, makeProvisionedApp, provision, setupCodeOf } from '../helpers/setup.ts';

const EN = 'en-US,en;q=0.9';
const STRONG = 'Edge#Admin2024';

async function trustingApp(): Promise<TestApp> {
  return makeApp({ embeddedLicenseKeys: [testLicenseKeys().publicKeyPem] });
}

async function state(t: TestApp): Promise<SetupState> {
  const res = await t.app.inject({ method: 'GET', url: licenseRoutes.setupState.url });
  expect(res.statusCode).toBe(200);
  return res.json() as SetupState;
}

function createAdmin(t: TestApp, body: Record<string, unknown>, headers: Record<string, string> = { [SETUP_CODE_HEADER]: setupCodeOf(t) }) {
  return t.app.inject({ method: 'POST', url: licenseRoutes.setupAdmin.url, headers: { 'accept-language': EN, ...headers }, payload: body });
}

async function license(t: TestApp): Promise<void> {
  const res = await activate(t, { licFile: issueLicense({ privateKeyPem: testLicenseKeys().privateKeyPem }) });
  expect(res.statusCode, res.body).toBe(200);
}

describe('first boot over HTTP', () => {
  it('walks licence, cloud and administrator, with the state after each step, then signs in', async () => {
    const t = await trustingApp();
    const code = setupCodeOf(t);
    expect(code).toMatch(/^[A-Z2-9]{12}$/);
    expect(await state(t)).toEqual({ licensed: false, licenseExpired: false, cloudConfigured: false, adminCreated: false, deviceSn: 'TEST-SN-0001' });

    await license(t);
    expect(await state(t)).toMatchObject({ licensed: true, licenseExpired: false, cloudConfigured: false, adminCreated: false });

    const cloud = await t.app.inject({
      method: 'PUT',
      url: cloudRoutes.save.url,
      headers: { [SETUP_CODE_HEADER]: code },
      payload: { platformAddress: '192.168.10.5', platformPort: 8883, platformKey: 'edge-key', platformSecret: 'edge-secret' },
    });
    expect(cloud.statusCode, cloud.body).toBe(200);
    expect(await state(t)).toMatchObject({ licensed: true, cloudConfigured: true, adminCreated: false });

    const created = await createAdmin(t, { username: 'edgeadmin', password: STRONG, platformName: 'Plant 3 Gateway' });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toEqual({ ok: true });
    expect(await state(t)).toEqual({ licensed: true, licenseExpired: false, cloudConfigured: true, adminCreated: true, deviceSn: 'TEST-SN-0001' });

    const session = await signIn(t.app, 'edgeadmin', STRONG);
    const me = await t.app.inject({ method: 'GET', url: userRoutes.me.url, headers: authHeader(session.token) });
    expect(me.json()).toMatchObject({ username: 'edgeadmin', realName: 'edgeadmin', role: 'SYS_ADMIN' });
    const platform = await t.app.inject({ method: 'GET', url: platformRoutes.info.url });
    expect(platform.json()).toMatchObject({ name: 'Plant 3 Gateway' });
  });

  it('lets the cloud step be skipped: the gateway then runs standalone', async () => {
    const t = await trustingApp();
    await license(t);
    expect((await createAdmin(t, { username: 'admin', password: STRONG })).statusCode).toBe(200);
    expect(await state(t)).toMatchObject({ licensed: true, cloudConfigured: false, adminCreated: true });
  });

  it('provision() gives other tests a licensed gateway with a working administrator in one call', async () => {
    const t = await makeProvisionedApp();
    expect(await state(t)).toMatchObject({ licensed: true, adminCreated: true, cloudConfigured: false });
    const session = await signIn(t.app, t.admin.username, t.admin.password);
    const res = await t.app.inject({
      method: 'PUT',
      url: userRoutes.updateProfile.url,
      headers: authHeader(session.token),
      payload: { id: (await t.app.inject({ method: 'GET', url: userRoutes.me.url, headers: authHeader(session.token) })).json().userId, realName: 'Ready' },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('provision() explains itself when the app does not trust the signing key', async () => {
    const t = await makeApp();
    await expect(provision(t)).rejects.toThrow(/embeddedLicenseKeys/);
  });
});

describe('POST /api/yt/setup/admin', () => {
  it('refuses to create the administrator before a licence is installed, with code 99', async () => {
    const t = await trustingApp();
    const res = await createAdmin(t, { username: 'admin', password: STRONG });
    expect(expectError(res, 403, 99, 'error.setup.licenseFirst').message).toBe('Please upload a valid licence first');
    expect((await state(t)).adminCreated).toBe(false);
  });

  it('refuses without the setup code, and with a wrong one', async () => {
    const t = await trustingApp();
    await license(t);
    expectError(await createAdmin(t, { username: 'admin', password: STRONG }, {}), 401, 10, 'error.setup.codeRequired');
    expectError(await createAdmin(t, { username: 'admin', password: STRONG }, { [SETUP_CODE_HEADER]: 'ABCDEFGHJKLM' }), 401, 10, 'error.setup.codeInvalid');
    expect((await state(t)).adminCreated).toBe(false);
  });

  it('throttles wrong setup codes per address like sign-ins: past five, even the right code waits (429 code 33)', async () => {
    const t = await trustingApp();
    await license(t);
    const wrong = { [SETUP_CODE_HEADER]: 'ABCDEFGHJKLM' };
    for (let i = 0; i < SETUP_CODE_BACKOFF.free; i++) expectError(await createAdmin(t, { username: 'admin', password: STRONG }, wrong), 401, 10, 'error.setup.codeInvalid');
    const locked = await createAdmin(t, { username: 'admin', password: STRONG });
    expectError(locked, 429, 33, 'error.setup.tooManyAttempts');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await state(t)).adminCreated).toBe(false);
  });

  it('refuses a weak password with code 45 and creates nobody', async () => {
    const t = await trustingApp();
    await license(t);
    for (const weak of ['Sh1!a', 'alllowercase1!', 'ALLUPPERCASE1!', 'NoDigits!!here', 'NoSpecial123abc', `Aa1!${'x'.repeat(27)}`]) {
      const res = await createAdmin(t, { username: 'admin', password: weak });
      expect(expectError(res, 400, 45, 'error.password.policy').message).toMatch(/8-30 characters/);
    }
    expect((await state(t)).adminCreated).toBe(false);
  });

  it('refuses a malformed username or platform name with code 31', async () => {
    const t = await trustingApp();
    await license(t);
    expectError(await createAdmin(t, { username: 'a b', password: STRONG }), 400, 31, 'error.validation');
    expectError(await createAdmin(t, { username: 'ab', password: STRONG }), 400, 31, 'error.validation');
    expectError(await createAdmin(t, { username: 'admin', password: STRONG, platformName: 'x'.repeat(31) }), 400, 31, 'error.validation');
    expectError(await createAdmin(t, { password: STRONG }), 400, 31, 'error.validation');
  });

  it('answers 409 to a second administrator, with or without the setup code or a session', async () => {
    const t = await trustingApp();
    await license(t);
    expect((await createAdmin(t, { username: 'admin', password: STRONG })).statusCode).toBe(200);
    expectError(await createAdmin(t, { username: 'other', password: STRONG }), 409, 35, 'error.setup.adminExists');
    expectError(await createAdmin(t, { username: 'other', password: STRONG }, {}), 409, 35, 'error.setup.adminExists');
    const session = await signIn(t.app, 'admin', STRONG);
    expectError(await createAdmin(t, { username: 'other', password: STRONG }, authHeader(session.token)), 409, 35, 'error.setup.adminExists');
    const loginOther = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'other', password: STRONG } });
    expect(loginOther.statusCode).toBe(401);
  });

  it('creates exactly one administrator when two first-boot requests race', async () => {
    const t = await trustingApp();
    await license(t);
    const [a, b] = await Promise.all([
      createAdmin(t, { username: 'first', password: STRONG }),
      createAdmin(t, { username: 'second', password: STRONG }),
    ]);
    expect([a.statusCode, b.statusCode].sort((x, y) => x - y)).toEqual([200, 409]);
    const winners = await Promise.all(
      ['first', 'second'].map((username) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password: STRONG } })),
    );
    expect(winners.filter((r) => r.statusCode === 200)).toHaveLength(1);
  });

  it('ends provisioning by setup code once the administrator exists: the licence upload then needs a session', async () => {
    const t = await trustingApp();
    await license(t);
    await createAdmin(t, { username: 'admin', password: STRONG });
    const lic = issueLicense({ privateKeyPem: testLicenseKeys().privateKeyPem });
    expectError(await activate(t, { licFile: lic, acceptLanguage: EN }), 401, 10, 'error.auth.required');
    const session = await signIn(t.app, 'admin', STRONG);
    expect((await activate(t, { licFile: lic, token: session.token })).statusCode).toBe(200);
  });
});
