import { describe, expect, it } from 'vitest';
import { cloudRoutes, type CloudConfig } from '../../server/contract/cloud.ts';
import { licenseRoutes, SETUP_CODE_HEADER } from '../../server/contract/license.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/error-body.ts';
import { authHeader, signIn } from '../helpers/session.ts';
import { makeProvisionedApp, setupCodeOf } from '../helpers/setup.ts';

const VALID: CloudConfig = {
  platformAddress: '192.168.1.20',
  platformPort: 1883,
  platformKey: 'tenant-edge-key',
  platformSecret: 'S3cret-never-echoed',
};

function put(t: TestApp, payload: unknown, headers: Record<string, string> = { [SETUP_CODE_HEADER]: setupCodeOf(t) }) {
  return t.app.inject({ method: 'PUT', url: cloudRoutes.save.url, headers, payload: payload as Record<string, unknown> });
}

function get(t: TestApp, headers: Record<string, string> = { [SETUP_CODE_HEADER]: setupCodeOf(t) }) {
  return t.app.inject({ method: 'GET', url: cloudRoutes.get.url, headers });
}

describe('cloud platform configuration', () => {
  it('answers null while the gateway runs standalone', async () => {
    const t = await makeApp();
    const res = await get(t);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toBeNull();
  });

  it('stores the configuration and never returns the secret', async () => {
    const t = await makeApp();
    const saved = await put(t, VALID);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).not.toContain(VALID.platformSecret);
    const view = saved.json();
    expect(view).toMatchObject({ platformAddress: '192.168.1.20', platformPort: 1883, platformKey: 'tenant-edge-key', platformSecretSet: true });
    expect(view).not.toHaveProperty('platformSecret');
    expect(typeof view.updatedTime).toBe('number');

    const read = await get(t);
    expect(read.body).not.toContain(VALID.platformSecret);
    expect(read.json()).toEqual(view);
  });

  it('accepts a host name and the port range limits 1 and 65535', async () => {
    const t = await makeApp();
    for (const [platformAddress, platformPort] of [['cloud.example.com', 1], ['iot-hub.local', 65535], ['10.0.0.1', 443]] as const) {
      const res = await put(t, { ...VALID, platformAddress, platformPort });
      expect(res.statusCode, `${platformAddress}:${platformPort} ${res.body}`).toBe(200);
      expect(res.json()).toMatchObject({ platformAddress, platformPort });
    }
  });

  it('refuses an address that is neither IPv4 nor a host name, including a dotted number out of range', async () => {
    const t = await makeApp();
    for (const platformAddress of ['300.1.1.1', '1.2.3', '1.2.3.4.5', '256.256.256.256', 'bad host', '-edge.example.com', 'http://cloud.example.com', 'ab', '']) {
      const res = await put(t, { ...VALID, platformAddress }, { [SETUP_CODE_HEADER]: setupCodeOf(t), 'accept-language': 'en-US' });
      const body = expectError(res, 400, 31, 'error.validation');
      expect(body.details?.some((d) => d.field.includes('platformAddress')), `${platformAddress}: ${res.body}`).toBe(true);
    }
    expect((await get(t)).json()).toBeNull();
  });

  it('refuses port 0, 65536, a fraction and text', async () => {
    const t = await makeApp();
    for (const platformPort of [0, 65536, 80.5, 'abc', -1]) {
      const res = await put(t, { ...VALID, platformPort });
      const body = expectError(res, 400, 31, 'error.validation');
      expect(body.details?.some((d) => d.field.includes('platformPort')), `${platformPort}: ${res.body}`).toBe(true);
    }
    expect((await get(t)).json()).toBeNull();
  });

  it('refuses a missing or empty key, a missing secret, and a key or secret over 128 characters', async () => {
    const t = await makeApp();
    const { platformSecret: _secret, ...noSecret } = VALID;
    expectError(await put(t, noSecret), 400, 31, 'error.validation');
    expectError(await put(t, { ...VALID, platformKey: '' }), 400, 31, 'error.validation');
    expectError(await put(t, { ...VALID, platformKey: 'k'.repeat(129) }), 400, 31, 'error.validation');
    expectError(await put(t, { ...VALID, platformSecret: 'x'.repeat(129) }), 400, 31, 'error.validation');
  });

  it('accepts an empty secret (access-token authentication) and keeps TLS and the HTTP address', async () => {
    const t = await makeApp();
    const saved = await put(t, { ...VALID, platformSecret: '', platformTls: true, platformHttpUrl: 'https://cloud.example.com:8080' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ platformSecretSet: false, platformTls: true, platformHttpUrl: 'https://cloud.example.com:8080' });
    expect((await get(t)).json()).toMatchObject({ platformTls: true, platformHttpUrl: 'https://cloud.example.com:8080' });
  });

  it('answers TLS off and no HTTP address when they were not given', async () => {
    const t = await makeApp();
    expect((await put(t, VALID)).json()).toMatchObject({ platformTls: false, platformHttpUrl: null });
  });

  it('refuses an HTTP address that is not http(s), has spaces or is over 256 characters', async () => {
    const t = await makeApp();
    for (const platformHttpUrl of ['ftp://cloud.example.com', 'cloud.example.com', 'http://bad host', `http://c.example.com/${'p'.repeat(240)}`, 'http://']) {
      const res = await put(t, { ...VALID, platformHttpUrl });
      const body = expectError(res, 400, 31, 'error.validation');
      expect(body.details?.some((d) => d.field.includes('platformHttpUrl')), `${platformHttpUrl}: ${res.body}`).toBe(true);
    }
    expect((await get(t)).json()).toBeNull();
  });

  it('needs the setup code while no administrator exists', async () => {
    const t = await makeApp();
    expectError(await put(t, VALID, {}), 401, 10, 'error.setup.codeRequired');
    expectError(await get(t, {}), 401, 10, 'error.setup.codeRequired');
    expectError(await put(t, VALID, { [SETUP_CODE_HEADER]: 'NOTTHECODE22' }), 401, 10, 'error.setup.codeInvalid');
  });

  it('after first boot, needs a signed-in user: the setup code alone is refused', async () => {
    const t = await makeProvisionedApp();
    expectError(await put(t, VALID), 401, 10, 'error.auth.required');
    const session = await signIn(t.app, t.admin.username, t.admin.password);
    const saved = await put(t, { ...VALID, platformAddress: 'cloud.example.com' }, authHeader(session.token));
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await get(t, authHeader(session.token))).json()).toMatchObject({ platformAddress: 'cloud.example.com' });
  });

  it('keeps the configuration across a restart', async () => {
    const first = await makeApp();
    await put(first, VALID);
    await first.app.close();
    const second = await makeApp({ dataDir: first.dataDir });
    expect((await get(second)).json()).toMatchObject({ platformAddress: VALID.platformAddress, platformSecretSet: true });
    expect((await second.app.inject({ method: 'GET', url: licenseRoutes.setupState.url })).json()).toMatchObject({ cloudConfigured: true });
  });
});
