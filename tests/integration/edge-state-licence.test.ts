/**
 * The licence gate (code 99) on the `setup` routes once an administrator exists: the edge state
 * answers a signed-in user like any business call (99 with an expired licence, as the live
 * EDGE_STATE over /api/ws does), while the provisioning endpoints (licence upload, cloud
 * configuration and its test) stay open: the administrator renews, and may re-point the cloud.
 */
import { describe, expect, it } from 'vitest';
import { cloudRoutes } from '../../server/contract/cloud.ts';
import { cloudLinkRoutes } from '../../server/contract/cloud-link.ts';
import { makeApp } from '../helpers/app.ts';
import { ContractClient } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';
import { generateKeyPair, issueLicense } from '../helpers/license.ts';
import { createAdmin } from '../helpers/session.ts';
import { activate } from '../helpers/setup.ts';

const CLOUD = { platformAddress: '127.0.0.1', platformPort: 1, platformKey: 'k', platformSecret: 's' };

describe('licence gate on the edge state after first boot', () => {
  it('answers 99 once the licence expires, and again 200 after the administrator uploads a fresh one', async () => {
    const keys = generateKeyPair();
    const t = await makeApp({ embeddedLicenseKeys: [keys.publicKeyPem] });
    const admin = await createAdmin(t);
    const api = new ContractClient(t.app, admin.token);
    const expiresAt = Date.now() + 1500;
    expect((await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem, expiresAt }), token: admin.token })).statusCode).toBe(200);
    expect((await api.call(cloudLinkRoutes.state, {})).statusCode).toBe(200);
    expect((await api.call(cloudRoutes.get, {})).statusCode).toBe(200);

    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now()) + 50));
    expectError(await api.call(cloudLinkRoutes.state, {}), 403, 99, 'error.license.expired');
    expectError(await api.call(cloudLinkRoutes.secret, {}), 403, 99, 'error.license.expired');
    const saved = await api.call(cloudRoutes.save, { body: CLOUD });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await api.call(cloudRoutes.get, {})).statusCode).toBe(200);

    const fresh = await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem, days: 365 }), token: admin.token });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect((await api.call(cloudLinkRoutes.state, {})).statusCode).toBe(200);
  });
});
