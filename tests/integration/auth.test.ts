import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_S, type TokenPair } from '../../server/contract/auth.ts';
import { loadSecrets } from '../../server/lib/secrets.ts';
import { signAccessToken } from '../../server/modules/auth/token.ts';
import {
  ACCOUNT_FAILURE_LIMIT,
  FAILURE_MEMORY_MS,
  FIRST_LOCK_MS,
  IP_FAILURE_LIMIT,
  MAX_LOCK_MS,
} from '../../server/modules/auth/password-attempts.ts';
import { migrations } from '../../server/app.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { hashPassword } from '../../server/lib/password.ts';
import { makeApp, tempDir, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/error-body.ts';
import { ADMIN_PASSWORD, ADMIN_USERNAME, authHeader, createAdmin, createUser, signIn } from '../helpers/session.ts';

afterEach(() => {
  vi.useRealTimers();
});

function login(t: TestApp, username: string, password: string, opts: { ip?: string; lang?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password },
    ...(opts.ip ? { remoteAddress: opts.ip } : {}),
    headers: opts.lang ? { 'accept-language': opts.lang } : {},
  });
}

function me(t: TestApp, token: string) {
  return t.app.inject({ method: 'GET', url: '/api/yt/user/me/info', headers: authHeader(token) });
}

function refresh(t: TestApp, refreshToken: string) {
  return t.app.inject({ method: 'POST', url: '/api/auth/token', payload: { refreshToken } });
}

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Lets the throttling window pass without waiting: only Date is faked, timers stay real. */
function advanceClock(ms: number): void {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  vi.setSystemTime(Date.now() + ms);
}

describe('POST /api/auth/login', () => {
  it('signs in with the right password and returns an access token of 9000 s and a refresh token', async () => {
    const t = await makeApp();
    const admin = await createAdmin(t);
    const res = await login(t, ADMIN_USERNAME, ADMIN_PASSWORD);
    expect(res.statusCode).toBe(200);
    const pair = res.json() as TokenPair;
    expect(pair.token.split('.')).toHaveLength(3);
    expect(pair.refreshToken.length).toBeGreaterThanOrEqual(43); // 32 random bytes, base64url
    const claims = claimsOf(pair.token);
    expect(claims).toMatchObject({ sub: admin.user.id, username: ADMIN_USERNAME, role: 'SYS_ADMIN', tv: 0 });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(ACCESS_TOKEN_TTL_S);
    const info = await me(t, pair.token);
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ userId: admin.user.id, username: ADMIN_USERNAME, role: 'SYS_ADMIN' });
  });

  it('refuses a wrong password with 401 code 10', async () => {
    const t = await makeApp();
    await createAdmin(t);
    expectError(await login(t, ADMIN_USERNAME, 'Wrong#Pass1'), 401, 10, 'error.auth.badCredentials');
  });

  it('answers an unknown user exactly as a wrong password', async () => {
    const t = await makeApp();
    await createAdmin(t);
    const unknown = await login(t, 'nobody', 'Wrong#Pass1');
    const wrong = await login(t, ADMIN_USERNAME, 'Wrong#Pass1');
    expectError(unknown, 401, 10, 'error.auth.badCredentials');
    expect(unknown.json()).toEqual(wrong.json());
  });

  it(`refuses the ${ACCOUNT_FAILURE_LIMIT + 1}th attempt after ${ACCOUNT_FAILURE_LIMIT} failures with 429, Retry-After and an English message`, async () => {
    const t = await makeApp();
    await createAdmin(t);
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) {
      expect((await login(t, ADMIN_USERNAME, 'Wrong#Pass1')).statusCode).toBe(401);
    }
    // Even the right password: otherwise the throttle would not slow a guesser.
    const res = await login(t, ADMIN_USERNAME, ADMIN_PASSWORD, { lang: 'en-US,en;q=0.9' });
    const body = expectError(res, 429, 33, 'error.loginRateLimited');
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBe(FIRST_LOCK_MS / 1000);
    expect(body.message).toBe(`Too many sign-in attempts, please try again in ${retryAfter} seconds`);
  });

  it('locks an account only for the address that failed: the right password from another address signs in', async () => {
    const t = await makeApp();
    await createAdmin(t);
    // An attacker fails from several addresses, round after round, as a probe would each minute.
    for (let round = 0; round < 3; round++) {
      for (const attacker of ['10.6.6.1', '10.6.6.2']) {
        for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) await login(t, ADMIN_USERNAME, 'Wrong#Pass1', { ip: attacker });
        expectError(await login(t, ADMIN_USERNAME, ADMIN_PASSWORD, { ip: attacker }), 429, 33, 'error.loginRateLimited');
      }
      advanceClock(60_000);
      expect((await login(t, ADMIN_USERNAME, ADMIN_PASSWORD, { ip: '10.0.0.99' })).statusCode).toBe(200);
    }
  });

  it('doubles the lock of an address on an account with each further failure, up to an hour, and always lifts it', async () => {
    const t = await makeApp();
    await createAdmin(t);
    const ip = '10.7.7.7';
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) expect((await login(t, ADMIN_USERNAME, 'Wrong#Pass1', { ip })).statusCode).toBe(401);
    const locks: number[] = [];
    for (let lockMs = FIRST_LOCK_MS; ; lockMs = Math.min(lockMs * 2, MAX_LOCK_MS)) {
      const refused = await login(t, ADMIN_USERNAME, ADMIN_PASSWORD, { ip });
      expectError(refused, 429, 33, 'error.loginRateLimited');
      locks.push(Number(refused.headers['retry-after']));
      expect(Number(refused.headers['retry-after'])).toBe(lockMs / 1000);
      advanceClock(lockMs + 1000);
      if (locks.filter((s) => s === MAX_LOCK_MS / 1000).length === 2) break;
      // One more wrong guess once the lock has lifted locks again, twice as long.
      expect((await login(t, ADMIN_USERNAME, 'Wrong#Pass1', { ip })).statusCode).toBe(401);
    }
    expect(locks).toEqual([60, 120, 240, 480, 960, 1920, 3600, 3600]);
    expect((await login(t, ADMIN_USERNAME, ADMIN_PASSWORD, { ip })).statusCode).toBe(200);
  });

  it('remembers the failures of an address on an account for a day, then forgets them', async () => {
    const t = await makeApp();
    await createAdmin(t);
    const ip = '10.8.8.8';
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) await login(t, ADMIN_USERNAME, 'Wrong#Pass1', { ip });
    // Long after the first lock: one more wrong guess is enough to lock again, for longer.
    advanceClock(10 * 60_000);
    expect((await login(t, ADMIN_USERNAME, 'Wrong#Pass1', { ip })).statusCode).toBe(401);
    const refused = await login(t, ADMIN_USERNAME, ADMIN_PASSWORD, { ip });
    expectError(refused, 429, 33, 'error.loginRateLimited');
    expect(refused.headers['retry-after']).toBe(String((2 * FIRST_LOCK_MS) / 1000));
    // A day without a failure: the address starts afresh.
    advanceClock(FAILURE_MEMORY_MS + 2 * FIRST_LOCK_MS);
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT - 1; i++) expect((await login(t, ADMIN_USERNAME, 'Wrong#Pass1', { ip })).statusCode).toBe(401);
    expect((await login(t, ADMIN_USERNAME, ADMIN_PASSWORD, { ip })).statusCode).toBe(200);
  });

  it('clears the account counter after a successful sign-in', async () => {
    const t = await makeApp();
    await createAdmin(t);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < ACCOUNT_FAILURE_LIMIT - 1; i++) {
        expect((await login(t, ADMIN_USERNAME, 'Wrong#Pass1')).statusCode).toBe(401);
      }
      expect((await login(t, ADMIN_USERNAME, ADMIN_PASSWORD)).statusCode).toBe(200);
    }
  });

  it(`throttles an address after ${IP_FAILURE_LIMIT} failures on any accounts, not other addresses`, async () => {
    const t = await makeApp();
    await createAdmin(t);
    for (let i = 0; i < IP_FAILURE_LIMIT; i++) {
      expect((await login(t, `guess${i}`, 'Wrong#Pass1', { ip: '10.1.1.1' })).statusCode).toBe(401);
    }
    expectError(await login(t, ADMIN_USERNAME, ADMIN_PASSWORD, { ip: '10.1.1.1' }), 429, 33, 'error.loginRateLimited');
    expect((await login(t, ADMIN_USERNAME, ADMIN_PASSWORD, { ip: '10.1.1.2' })).statusCode).toBe(200);
  });

  it('never locks an account for good: the first lock lifts after a minute', async () => {
    const t = await makeApp();
    await createAdmin(t);
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) await login(t, ADMIN_USERNAME, 'Wrong#Pass1');
    expect((await login(t, ADMIN_USERNAME, ADMIN_PASSWORD)).statusCode).toBe(429);
    advanceClock(FIRST_LOCK_MS + 1000);
    expect((await login(t, ADMIN_USERNAME, ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a body without a password as a validation error', async () => {
    const t = await makeApp();
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'admin' } });
    expectError(res, 400, 31, 'error.validation');
  });
});

describe('POST /api/auth/token', () => {
  it('rotates: the new pair works and the old refresh token is refused', async () => {
    const t = await makeApp();
    const admin = await createAdmin(t);
    const res = await refresh(t, admin.refreshToken);
    expect(res.statusCode).toBe(200);
    const next = res.json() as TokenPair;
    expect(next.refreshToken).not.toBe(admin.refreshToken);
    expect((await me(t, next.token)).statusCode).toBe(200);
    expectError(await refresh(t, admin.refreshToken), 401, 10, 'error.auth.refreshInvalid');
  });

  it('treats a replayed refresh token as theft: every token of that sign-in stops working, other sign-ins go on', async () => {
    const t = await makeApp();
    const first = await createAdmin(t);
    const other = await signIn(t.app, first.username, first.password);
    const second = (await refresh(t, first.refreshToken)).json() as TokenPair;
    const third = (await refresh(t, second.refreshToken)).json() as TokenPair;
    expect((await me(t, third.token)).statusCode).toBe(200);

    // Whoever holds the rotated token (a thief, or the rightful client after the thief rotated it).
    expectError(await refresh(t, second.refreshToken), 401, 10, 'error.auth.refreshInvalid');

    expectError(await refresh(t, third.refreshToken), 401, 10, 'error.auth.refreshInvalid');
    for (const pair of [first, second, third]) expectError(await me(t, pair.token), 401, 10, 'error.auth.tokenInvalid');
    expect((await me(t, other.token)).statusCode).toBe(200);
    const rotated = await refresh(t, other.refreshToken);
    expect(rotated.statusCode).toBe(200);
    expect((await me(t, (rotated.json() as TokenPair).token)).statusCode).toBe(200);
  });

  it('catches the replay of a refresh token issued before the upgrade that added token families', async () => {
    const dataDir = tempDir();
    const before = migrations.filter((m) => m.name < '0009');
    const db = openDatabase(join(dataDir, 'edge.db'), before);
    // The columns of that time only (later migrations add more; UserRepository writes them).
    const user = { id: 'first-admin' };
    db.prepare('INSERT INTO user (id, username, password_hash, role, real_name, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(user.id, ADMIN_USERNAME, await hashPassword(ADMIN_PASSWORD), 'TENANT_ADMIN', 'admin', Date.now(), Date.now());
    const oldToken = randomBytes(32).toString('base64url');
    db.prepare('INSERT INTO refresh_token (id, user_id, expires_time, create_time) VALUES (?, ?, ?, ?)')
      .run(createHash('sha256').update(oldToken).digest('hex'), user.id, Date.now() + 3600_000, Date.now());
    db.close();

    const t = await makeApp({ dataDir });
    const rotated = await refresh(t, oldToken);
    expect(rotated.statusCode).toBe(200);
    const next = rotated.json() as TokenPair;
    expect((await me(t, next.token)).statusCode).toBe(200);
    expectError(await refresh(t, oldToken), 401, 10, 'error.auth.refreshInvalid');
    expectError(await refresh(t, next.refreshToken), 401, 10, 'error.auth.refreshInvalid');
    expectError(await me(t, next.token), 401, 10, 'error.auth.tokenInvalid');
  });

  it('refuses a refresh token it never issued', async () => {
    const t = await makeApp();
    await createAdmin(t);
    expectError(await refresh(t, 'x'.repeat(43)), 401, 10, 'error.auth.refreshInvalid');
  });

  it('refuses a refresh token older than 7 days', async () => {
    const t = await makeApp();
    const admin = await createAdmin(t);
    advanceClock(REFRESH_TOKEN_TTL_S * 1000 + 1000);
    expectError(await refresh(t, admin.refreshToken), 401, 10, 'error.auth.refreshInvalid');
  });
});

describe('access tokens', () => {
  async function signedWithAppKey(t: TestApp, patch: Record<string, unknown>): Promise<string> {
    const admin = await createAdmin(t);
    const now = Math.floor(Date.now() / 1000);
    return signAccessToken(loadSecrets(t.dataDir).jwtKey, {
      sub: admin.user.id,
      username: admin.username,
      role: 'SYS_ADMIN',
      tv: 0,
      iat: now,
      exp: now + 60,
      ...patch,
    });
  }

  it('answers an expired access token with 401 code 11', async () => {
    const t = await makeApp();
    const now = Math.floor(Date.now() / 1000);
    const token = await signedWithAppKey(t, { iat: now - ACCESS_TOKEN_TTL_S - 10, exp: now - 10 });
    expectError(await me(t, token), 401, 11, 'error.auth.tokenExpired');
  });

  it('accepts a token signed with the per-install key', async () => {
    const t = await makeApp();
    expect((await me(t, await signedWithAppKey(t, {}))).statusCode).toBe(200);
  });

  it('refuses a token whose payload was altered with 401 code 10', async () => {
    const t = await makeApp();
    const admin = await createAdmin(t);
    const [header, payload, signature] = admin.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, username: 'someone-else' })).toString('base64url');
    expectError(await me(t, `${header}.${forged}.${signature}`), 401, 10, 'error.auth.tokenInvalid');
  });

  it('refuses a token signed with another key, and an unsigned one', async () => {
    const t = await makeApp();
    const admin = await createAdmin(t);
    const claims = claimsOf(admin.token);
    const other = signAccessToken(Buffer.alloc(48, 7), claims as unknown as Parameters<typeof signAccessToken>[1]);
    expectError(await me(t, other), 401, 10, 'error.auth.tokenInvalid');
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${admin.token.split('.')[1]}.`;
    expectError(await me(t, none), 401, 10, 'error.auth.tokenInvalid');
  });

  it('asks for a sign-in when no token is sent', async () => {
    const t = await makeApp();
    expectError(await t.app.inject({ method: 'GET', url: '/api/yt/user/me/info' }), 401, 10, 'error.auth.required');
  });
});

describe('POST /api/auth/logout', () => {
  it("ends every session of the user: access and refresh tokens of all sign-ins stop working", async () => {
    const t = await makeApp();
    const first = await createAdmin(t);
    const second = await signIn(t.app, first.username, first.password);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: authHeader(first.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    for (const pair of [first, second]) {
      expectError(await me(t, pair.token), 401, 10, 'error.auth.tokenInvalid');
      expectError(await refresh(t, pair.refreshToken), 401, 10, 'error.auth.refreshInvalid');
    }
    expect((await login(t, first.username, first.password)).statusCode).toBe(200);
  });

  it("leaves other users' sessions alone", async () => {
    const t = await makeApp();
    const admin = await createAdmin(t);
    await createUser(t, 'operator', 'Oper@tor2024', 'CUSTOMER_USER');
    const other = await signIn(t.app, 'operator', 'Oper@tor2024');
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: authHeader(admin.token) });
    expect((await me(t, other.token)).statusCode).toBe(200);
    expect((await refresh(t, other.refreshToken)).statusCode).toBe(200);
  });

  it('requires a signed-in caller', async () => {
    const t = await makeApp();
    expectError(await t.app.inject({ method: 'POST', url: '/api/auth/logout' }), 401, 10, 'error.auth.required');
  });
});

describe('sessions over real HTTP', () => {
  it('signs in, calls with the bearer token, rotates the refresh token and refuses the old one', async () => {
    const t = await makeApp();
    await createAdmin(t);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const post = (path: string, body: unknown) =>
      fetch(`${address}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    const loginRes = await post('/api/auth/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    expect(loginRes.status).toBe(200);
    const pair = (await loginRes.json()) as TokenPair;

    const info = await fetch(`${address}/api/yt/user/me/info`, { headers: authHeader(pair.token) });
    expect(info.status).toBe(200);
    expect(((await info.json()) as { username: string }).username).toBe(ADMIN_USERNAME);

    const rotated = await post('/api/auth/token', { refreshToken: pair.refreshToken });
    expect(rotated.status).toBe(200);
    const reused = await post('/api/auth/token', { refreshToken: pair.refreshToken });
    expect(reused.status).toBe(401);
    expect(await reused.json()).toMatchObject({ code: 10, key: 'error.auth.refreshInvalid' });

    const wrong = await post('/api/auth/login', { username: ADMIN_USERNAME, password: 'Wrong#Pass1' });
    expect(wrong.status).toBe(401);
  });
});
