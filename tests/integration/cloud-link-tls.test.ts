/**
 * The cloud's CA certificate: refused on save when it is not a PEM certificate, and, once stored,
 * trusted by the TLS connection to a TLS mosquitto whose server certificate it signed (CA and
 * server certificate made here with openssl, in a temporary directory).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cloudRoutes, PLATFORM_CA_MAX_BYTES, type CloudConfig } from '../../server/contract/cloud.ts';
import { cloudLinkRoutes } from '../../server/contract/cloud-link.ts';
import { tempDir } from '../helpers/app.ts';
import { edgeState } from '../helpers/cloud-subscriber.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';
import { startMosquitto } from '../helpers/mosquitto.ts';
import { eventually } from '../helpers/mqtt.ts';

const FAST = { cloudLink: { backoffMinMs: 100, backoffMaxMs: 400 } };

/** A CA, and a server certificate for 127.0.0.1 it signed. */
function makeCertificates(): { dir: string; caPem: string } {
  const dir = tempDir('cloud-tls-');
  writeFileSync(join(dir, 'san.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  const run = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  };
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Test Cloud CA');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', join(dir, 'san.cnf'));
  return { dir, caPem: readFileSync(join(dir, 'ca.pem'), 'utf8') };
}

describe('cloud CA certificate', () => {
  it('refuses what is not a PEM certificate, naming the field', async () => {
    const t = await makeDeviceApp();
    const base: CloudConfig = { platformAddress: '127.0.0.1', platformPort: 8883, platformKey: 'k', platformSecret: '' };
    const garbage = await t.api.call(cloudRoutes.save, { body: { ...base, platformCaPem: 'hello, not a certificate' } });
    expect(expectError(garbage, 400, 31, 'error.cloud.caInvalid').details?.[0]).toMatchObject({ field: 'body.platformCaPem' });
    const broken = await t.api.call(cloudRoutes.save, { body: { ...base, platformCaPem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n' } });
    expectError(broken, 400, 31, 'error.cloud.caInvalid');
    const key = await t.api.call(cloudRoutes.save, { body: { ...base, platformCaPem: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' } });
    expectError(key, 400, 31, 'error.cloud.caInvalid');
    const huge = await t.api.call(cloudRoutes.save, { body: { ...base, platformCaPem: 'x'.repeat(PLATFORM_CA_MAX_BYTES + 1) } });
    expect(huge.statusCode).toBe(400);
    expect(await t.api.ok(cloudRoutes.get, {})).toBeNull();
  });

  it('connects over TLS with the uploaded CA, which a later save without it keeps; without it the TLS failure shows', async () => {
    const cert = makeCertificates();
    // mosquitto may read its files as another user.
    chmodSync(cert.dir, 0o755);
    for (const f of readdirSync(cert.dir)) chmodSync(join(cert.dir, f), 0o644);
    const broker = await startMosquitto([`certfile ${join(cert.dir, 'server.pem')}`, `keyfile ${join(cert.dir, 'server.key')}`]);
    const t = await makeDeviceApp({ tuning: FAST });
    const cloud: CloudConfig = { platformAddress: '127.0.0.1', platformPort: broker.port, platformKey: 'edge-key', platformSecret: 's', platformTls: true };

    const untrusted = await t.api.ok(cloudLinkRoutes.test, { lang: 'en-US', body: cloud });
    expect(untrusted).toMatchObject({ ok: false, code: -1, message: expect.stringContaining('Secure connection') });
    expect(await t.api.ok(cloudLinkRoutes.test, { body: { ...cloud, platformCaPem: cert.caPem } })).toMatchObject({ ok: true, code: 0 });

    await t.api.ok(cloudRoutes.save, { body: cloud });
    const refused = await eventually(() => edgeState(t), (s) => s.status === 'DISCONNECTED' && !!s.lastError);
    expect(refused.lastError).toBeTruthy();

    const saved = await t.api.ok(cloudRoutes.save, { body: { ...cloud, platformCaPem: cert.caPem } });
    expect(saved?.platformCa).toMatchObject({ subject: expect.stringContaining('Test Cloud CA') });
    // openssl -days 2: valid until about two days from now.
    expect(saved!.platformCa!.validTo).toBeGreaterThan(Date.now() + 86_400_000);
    expect(saved!.platformCa!.validTo).toBeLessThan(Date.now() + 3 * 86_400_000);
    await eventually(() => edgeState(t), (s) => s.status === 'CONNECTED');

    // A form that did not touch the CA sends none: the stored one stays, and the test uses it too.
    const again = await t.api.ok(cloudRoutes.save, { body: { ...cloud, platformKey: 'edge-key-2' } });
    expect(again?.platformCa?.subject).toContain('Test Cloud CA');
    await eventually(() => edgeState(t), (s) => s.status === 'CONNECTED' && s.edgeKey === 'edge-key-2');
    expect(await t.api.ok(cloudLinkRoutes.test, { body: cloud })).toMatchObject({ ok: true });

    // An empty CA removes it: the system's CAs do not know this one.
    expect((await t.api.ok(cloudRoutes.save, { body: { ...cloud, platformCaPem: '' } }))?.platformCa).toBeNull();
    await eventually(() => edgeState(t), (s) => s.status === 'DISCONNECTED');
  });
});
