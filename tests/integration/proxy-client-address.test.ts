/**
 * Proxy mode in front of a real edge core: two instances on loopback ports, the console in proxy
 * mode forwarding to an embedded upstream that trusts it (`--trusted-proxy`). The sign-in limits of
 * the upstream must see each client's own address, not the proxy's.
 */
import { describe, expect, it } from 'vitest';
import { ACCOUNT_FAILURE_LIMIT, IP_FAILURE_LIMIT } from '../../server/modules/auth/password-attempts.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/error-body.ts';
import { ADMIN_PASSWORD, ADMIN_USERNAME, createAdmin } from '../helpers/session.ts';

async function upstreamTrusting(trustedProxies: string[]): Promise<TestApp & { url: string }> {
  const t = await makeApp({ trustedProxies });
  await createAdmin(t);
  return { ...t, url: await t.app.listen({ port: 0, host: '127.0.0.1' }) };
}

function login(t: TestApp, password: string, from: string, opts: { username?: string; forwardedFor?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: opts.username ?? ADMIN_USERNAME, password },
    remoteAddress: from,
    headers: opts.forwardedFor ? { 'x-forwarded-for': opts.forwardedFor } : {},
  });
}

describe('client addresses through proxy mode (--upstream, --trusted-proxy)', () => {
  it("keeps one client's failed sign-ins from locking out the others behind the proxy, whatever X-Forwarded-For it forges", async () => {
    const upstream = await upstreamTrusting(['127.0.0.1']);
    const proxy = await makeApp({ upstream: upstream.url });
    const attacker = '10.9.0.1';
    // Sprays names and the administrator's account, forging a new X-Forwarded-For every time: the
    // upstream takes the address the proxy appended, which the client cannot choose.
    for (let i = 0; i < IP_FAILURE_LIMIT; i++) {
      const username = i < ACCOUNT_FAILURE_LIMIT ? ADMIN_USERNAME : `guess${i}`;
      const res = await login(proxy, 'Wrong#Pass1', attacker, { username, forwardedFor: `198.51.100.${i + 1}` });
      expect(res.statusCode).toBe(401);
    }
    expectError(await login(proxy, ADMIN_PASSWORD, attacker, { forwardedFor: '198.51.100.200' }), 429, 33, 'error.loginRateLimited');

    expect((await login(proxy, ADMIN_PASSWORD, '10.9.0.2')).statusCode).toBe(200);
  });

  it('lets an upstream believe X-Forwarded-For only from the proxies it trusts', async () => {
    const upstream = await upstreamTrusting(['127.0.0.1']);
    // A client reaching the upstream directly, not from a trusted proxy: its header is ignored.
    const stranger = '10.9.0.3';
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) {
      expect((await login(upstream, 'Wrong#Pass1', stranger, { forwardedFor: `198.51.100.${i + 1}` })).statusCode).toBe(401);
    }
    expectError(await login(upstream, ADMIN_PASSWORD, stranger, { forwardedFor: '198.51.100.99' }), 429, 33, 'error.loginRateLimited');
    // From the trusted proxy's address, the forwarded client is the one counted.
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) await login(upstream, 'Wrong#Pass1', '127.0.0.1', { forwardedFor: '10.9.0.4' });
    expectError(await login(upstream, ADMIN_PASSWORD, '127.0.0.1', { forwardedFor: '10.9.0.4' }), 429, 33, 'error.loginRateLimited');
    expect((await login(upstream, ADMIN_PASSWORD, '127.0.0.1', { forwardedFor: '10.9.0.5' })).statusCode).toBe(200);
  });
});
