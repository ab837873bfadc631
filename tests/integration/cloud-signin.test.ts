/**
 * Sign-in with the cloud's accounts: a second gateway stands in for the cloud (it answers the
 * ThingsBoard-style `POST /api/auth/login` and `GET /api/auth/user` itself) on a real HTTP port.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { authRoutes, TB_NULL_ID } from '../../server/contract/auth.ts';
import { cloudRoutes, type CloudConfig } from '../../server/contract/cloud.ts';
import { organizationRoutes } from '../../server/contract/organization.ts';
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
      // The administrator of the first boot is the gateway's owner.
      authority: 'SYS_ADMIN',
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
    // Moving the cloud's address is a setting: the gateway's own administrator does it.
    const owner = await createAdmin(edge);
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
    const moved = await edge.app.inject({ method: 'PUT', url: cloudRoutes.save.url, headers: authHeader(owner.token), payload: cloudConfig(restarted.url) });
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

/**
 * A ThingsBoard cloud as its REST API answers (a gateway has no customers to play one): a customer
 * user of customer "华东工厂". `hang` makes every call wait forever, as an unreachable address does.
 */
async function startThingsBoard(opts: { hang?: boolean } = {}): Promise<{ url: string; close: () => Promise<void> }> {
  const customerId = 'c0ffee00-0000-11ee-8000-000000000001';
  const server = createServer((req, res) => {
    if (opts.hang) return;
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (req.method === 'POST' && req.url === '/api/auth/login') {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw) as { username: string; password: string };
        if (body.username === 'customer@tb.example' && body.password === 'Cust#Pass1') send(200, { token: 'tb-token', refreshToken: 'tb-refresh' });
        else send(401, { status: 401, message: 'Invalid username or password', errorCode: 10 });
      });
      return;
    }
    if (req.headers['x-authorization'] !== 'Bearer tb-token') return send(401, { status: 401, errorCode: 11 });
    if (req.url === '/api/auth/user') {
      return send(200, {
        id: { entityType: 'USER', id: 'u-1' },
        tenantId: { entityType: 'TENANT', id: 't-1' },
        customerId: { entityType: 'CUSTOMER', id: customerId },
        email: 'customer@tb.example',
        authority: 'CUSTOMER_USER',
        firstName: 'Wei',
        lastName: 'Zhang',
      });
    }
    if (req.url === `/api/customer/${customerId}`) return send(200, { id: { entityType: 'CUSTOMER', id: customerId }, title: '华东工厂' });
    send(404, { status: 404, errorCode: 32 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('sign-in with a ThingsBoard customer user', () => {
  it('signs a customer user in as a CUSTOMER_USER of the organization named like the cloud customer', async () => {
    const tb = await startThingsBoard();
    try {
      const edge = await makeLicensedApp();
      const admin = await createAdmin(edge);
      const saved = await edge.app.inject({ method: 'PUT', url: cloudRoutes.save.url, headers: authHeader(admin.token), payload: cloudConfig(tb.url) });
      expect(saved.statusCode, saved.body).toBe(200);
      const org = await edge.app.inject({ method: 'POST', url: organizationRoutes.create.url, headers: authHeader(admin.token), payload: { name: '华东工厂' } });
      expect(org.statusCode, org.body).toBe(200);

      const session = await signIn(edge.app, 'customer@tb.example', 'Cust#Pass1');
      expect(await tbUser(edge, session.token)).toMatchObject({
        authority: 'CUSTOMER_USER',
        customerId: { entityType: 'CUSTOMER', id: org.json().id },
        firstName: 'Wei Zhang',
      });
    } finally {
      await tb.close();
    }
  });

  it('falls back to the stored verifier when the cloud does not answer (5 s at most per call)', async () => {
    const tb = await startThingsBoard();
    const edge = await startEdge(tb.url);
    await signIn(edge.app, 'customer@tb.example', 'Cust#Pass1');
    await tb.close();
    const hung = await startThingsBoard({ hang: true });
    try {
      // No administrator exists yet (a customer user is none), so the setup code still moves the cloud.
      const moved = await edge.app.inject({ method: 'PUT', url: cloudRoutes.save.url, headers: { [SETUP_CODE_HEADER]: setupCodeOf(edge) }, payload: cloudConfig(hung.url) });
      expect(moved.statusCode, moved.body).toBe(200);
      const offline = await signIn(edge.app, 'customer@tb.example', 'Cust#Pass1');
      expect((await tbUser(edge, offline.token)).authority).toBe('CUSTOMER_USER');
    } finally {
      await hung.close();
    }
  }, 15_000);
});

describe('parallel first sign-ins', () => {
  it('links one local user when the same cloud account signs in twice at once', async () => {
    const { url } = await startCloud();
    const edge = await startEdge(url);
    const [a, b] = await Promise.all([login(edge, TENANT.username, TENANT.password), login(edge, TENANT.username, TENANT.password)]);
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([200, 200]);
    const ids = await Promise.all([a, b].map(async (res) => (await tbUser(edge, (res.json() as { token: string }).token)).id));
    expect(ids[0]).toEqual(ids[1]);
  });
});
