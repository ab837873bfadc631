/**
 * Sign-in with the cloud's accounts: a second gateway stands in for the cloud (it answers the
 * ThingsBoard-style `POST /api/auth/login` and `GET /api/auth/user` itself) on a real HTTP port.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { authRoutes, TB_NULL_ID } from '../../server/contract/auth.ts';
import { cloudRoutes, type CloudConfig } from '../../server/contract/cloud.ts';
import { userRoutes } from '../../server/contract/user.ts';
import type { Config } from '../../server/config.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/error-body.ts';
import { testLicenseKeys } from '../helpers/license.ts';
import { authHeader, createAdmin, createUser, makeLicensedApp, signIn } from '../helpers/session.ts';
import { setupCodeOf } from '../helpers/setup.ts';
import { SETUP_CODE_HEADER } from '../../server/contract/license.ts';

const TENANT = { username: 'tenant@cloud.example', password: 'Cloud#Pass1' };
const NEW_PASSWORD = 'Cloud#Pass2';

/** A licensed gateway listening on loopback, playing the cloud, with a tenant administrator. */
async function startCloud(dataDir?: string): Promise<{ cloud: TestApp; url: string }> {
  const cloud = dataDir ? await makeApp({ dataDir, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem] }) : await makeLicensedApp();
  if (!dataDir) await createUser(cloud, TENANT.username, TENANT.password, 'TENANT_ADMIN');
  await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const address = cloud.app.server.address();
  if (!address || typeof address === 'string') throw new Error('cloud did not bind a port');
  return { cloud, url: `http://127.0.0.1:${address.port}` };
}

function cloudConfig(platformHttpUrl: string): CloudConfig {
  return { platformAddress: '127.0.0.1', platformPort: 1883, platformKey: 'edge-token', platformSecret: '', platformHttpUrl };
}

/** An edge gateway whose cloud configuration points at `url`, stored with the setup code (no administrator yet). */
async function startEdge(url: string, overrides: Partial<Config> = {}): Promise<TestApp> {
  const edge = await makeApp({ deviceSn: 'EDGE-SN-0002', ...overrides });
  const res = await edge.app.inject({ method: 'PUT', url: cloudRoutes.save.url, headers: { [SETUP_CODE_HEADER]: setupCodeOf(edge) }, payload: cloudConfig(url) });
  expect(res.statusCode, res.body).toBe(200);
  return edge;
}

function login(t: TestApp, username: string, password: string) {
  return t.app.inject({ method: 'POST', url: authRoutes.login.url, payload: { username, password } });
}

async function tbUser(t: TestApp, token: string): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ method: 'GET', url: authRoutes.user.url, headers: { 'x-authorization': `Bearer ${token}` } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('GET /api/auth/user', () => {
  it("answers the signed-in user in ThingsBoard's User shape", async () => {
    const t = await makeApp();
    const admin = await createAdmin(t);
    const user = await tbUser(t, admin.token);
    expect(user).toMatchObject({
      id: { entityType: 'USER', id: admin.user.id },
      authority: 'TENANT_ADMIN',
      customerId: { entityType: 'CUSTOMER', id: TB_NULL_ID },
      name: admin.username,
      additionalInfo: {},
    });
    expect(user.tenantId).toMatchObject({ entityType: 'TENANT', id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/) });
    expect(user.createdTime).toBe(admin.user.createTime);
  });

  it('maps PLATFORM_ADMIN to TENANT_ADMIN, keeps SYS_ADMIN and CUSTOMER_USER, and refuses a caller without a token', async () => {
    const t = await makeApp();
    for (const [role, authority] of [['PLATFORM_ADMIN', 'TENANT_ADMIN'], ['SYS_ADMIN', 'SYS_ADMIN'], ['CUSTOMER_USER', 'CUSTOMER_USER']] as const) {
      await createUser(t, `u-${role}`, 'Local#Pass1', role);
      const session = await signIn(t.app, `u-${role}`, 'Local#Pass1');
      expect((await tbUser(t, session.token)).authority).toBe(authority);
    }
    expectError(await t.app.inject({ method: 'GET', url: authRoutes.user.url }), 401, 10, 'error.auth.required');
  });
});

describe('sign-in with a cloud account', () => {
  it('signs a cloud tenant administrator in online as a linked TENANT_ADMIN, then offline with the cloud stopped', async () => {
    const { cloud, url } = await startCloud();
    const edge = await startEdge(url);

    const online = await signIn(edge.app, TENANT.username, TENANT.password);
    const user = await tbUser(edge, online.token);
    expect(user).toMatchObject({ authority: 'TENANT_ADMIN', email: TENANT.username, customerId: { id: TB_NULL_ID } });
    const me = await edge.app.inject({ method: 'GET', url: userRoutes.me.url, headers: authHeader(online.token) });
    expect(me.json()).toMatchObject({ username: TENANT.username, role: 'TENANT_ADMIN' });

    await cloud.app.close();
    const offline = await signIn(edge.app, TENANT.username, TENANT.password);
    expect((await tbUser(edge, offline.token)).id).toEqual(user.id);
    expectError(await login(edge, TENANT.username, 'Wrong#Pass1'), 401, 10, 'error.auth.badCredentials');
  });

  it('never stores the cloud password itself', async () => {
    const { url } = await startCloud();
    const edge = await startEdge(url);
    await signIn(edge.app, TENANT.username, TENANT.password);
    await edge.app.close();
    for (const file of ['edge.db', 'edge.db-wal']) {
      const path = join(edge.dataDir, file);
      if (existsSync(path)) expect(readFileSync(path).includes(TENANT.password)).toBe(false);
    }
  });

  it('refuses the old password at the next online sign-in once it changed in the cloud, and offline after that', async () => {
    const { cloud, url } = await startCloud();
    const edge = await startEdge(url);
    const first = await signIn(edge.app, TENANT.username, TENANT.password);

    // The password changes in the cloud while the edge cannot reach it.
    const cloudSession = await signIn(cloud.app, TENANT.username, TENANT.password);
    const cloudUser = await tbUser(cloud, cloudSession.token);
    const reset = await cloud.app.inject({
      method: 'POST',
      url: userRoutes.resetPassword.url,
      headers: authHeader(cloudSession.token),
      payload: { userId: (cloudUser.id as { id: string }).id, password: TENANT.password, resetPassword: NEW_PASSWORD },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    await cloud.app.close();
    // Offline the edge cannot know: the stored verifier still lets the old password in.
    await signIn(edge.app, TENANT.username, TENANT.password);

    const restarted = await startCloud(cloud.dataDir);
    const moved = await edge.app.inject({ method: 'PUT', url: cloudRoutes.save.url, headers: authHeader(first.token), payload: cloudConfig(restarted.url) });
    expect(moved.statusCode, moved.body).toBe(200);

    expectError(await login(edge, TENANT.username, TENANT.password), 401, 10, 'error.auth.badCredentials');
    // The refusal ended the sessions the old password had opened.
    expectError(await edge.app.inject({ method: 'GET', url: authRoutes.user.url, headers: authHeader(first.token) }), 401, 10, 'error.auth.tokenInvalid');

    await restarted.cloud.app.close();
    expectError(await login(edge, TENANT.username, TENANT.password), 401, 10, 'error.auth.badCredentials');
  });

  it('lets the new cloud password in online after a change', async () => {
    const { cloud, url } = await startCloud();
    const edge = await startEdge(url);
    await signIn(edge.app, TENANT.username, TENANT.password);
    const cloudSession = await signIn(cloud.app, TENANT.username, TENANT.password);
    const id = ((await tbUser(cloud, cloudSession.token)).id as { id: string }).id;
    await cloud.app.inject({ method: 'POST', url: userRoutes.resetPassword.url, headers: authHeader(cloudSession.token), payload: { userId: id, password: TENANT.password, resetPassword: NEW_PASSWORD } });
    const session = await signIn(edge.app, TENANT.username, NEW_PASSWORD);
    expect((await tbUser(edge, session.token)).authority).toBe('TENANT_ADMIN');
  });

  it('signs a cloud customer user in as a CUSTOMER_USER', async () => {
    const { cloud, url } = await startCloud();
    await createUser(cloud, 'customer@cloud.example', 'Cust#Pass1', 'CUSTOMER_USER');
    const edge = await startEdge(url);
    const session = await signIn(edge.app, 'customer@cloud.example', 'Cust#Pass1');
    expect(await tbUser(edge, session.token)).toMatchObject({ authority: 'CUSTOMER_USER', email: 'customer@cloud.example' });
  });

  it("refuses the cloud's system administrator with code 10", async () => {
    const { cloud, url } = await startCloud();
    await createUser(cloud, 'sysadmin@cloud.example', 'Sys#Pass12', 'SYS_ADMIN');
    const edge = await startEdge(url);
    expectError(await login(edge, 'sysadmin@cloud.example', 'Sys#Pass12'), 401, 10, 'error.auth.cloudRoleRefused');
  });

  it('refuses offline sign-in once the offline allowance (--cloud-offline-days) has passed', async () => {
    const { cloud, url } = await startCloud();
    const edge = await startEdge(url, { cloudOfflineDays: 0 });
    await signIn(edge.app, TENANT.username, TENANT.password);
    await cloud.app.close();
    expectError(await login(edge, TENANT.username, TENANT.password), 401, 10, 'error.auth.badCredentials');
  });

  it('keeps local accounts local: their own password, with the cloud up or down, even under a name the cloud knows', async () => {
    const { cloud, url } = await startCloud();
    const edge = await startEdge(url);
    await createUser(edge, TENANT.username, 'Local#Pass1', 'TENANT_ADMIN');
    expectError(await login(edge, TENANT.username, TENANT.password), 401, 10, 'error.auth.badCredentials');
    await signIn(edge.app, TENANT.username, 'Local#Pass1');
    await cloud.app.close();
    await signIn(edge.app, TENANT.username, 'Local#Pass1');
  });

  it('refuses an unknown name when the cloud is unreachable and no account was linked', async () => {
    const { cloud, url } = await startCloud();
    const edge = await startEdge(url);
    await cloud.app.close();
    expectError(await login(edge, TENANT.username, TENANT.password), 401, 10, 'error.auth.badCredentials');
  });

  it('counts refused cloud sign-ins against the sign-in rate limit', async () => {
    const { url } = await startCloud();
    const edge = await startEdge(url);
    for (let i = 0; i < 5; i++) expectError(await login(edge, TENANT.username, 'Wrong#Pass1'), 401, 10, 'error.auth.badCredentials');
    expectError(await login(edge, TENANT.username, TENANT.password), 429, 33, 'error.loginRateLimited');
  });
});
