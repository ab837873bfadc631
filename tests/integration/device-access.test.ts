/**
 * What the console shows device makers: the MQTT ports the gateway really listens on and the TLS
 * port's certificate to pin, whatever `--mqtt-port`/`--mqtts-port` say.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deviceAccessRoutes, type DeviceAccess } from '../../server/contract/device-access.ts';
import { expectError } from '../helpers/error-body.ts';
import { authHeader, signIn } from '../helpers/session.ts';
import { makeProvisionedApp } from '../helpers/setup.ts';

async function signedIn(overrides: Parameters<typeof makeProvisionedApp>[0] = {}) {
  const t = await makeProvisionedApp(overrides);
  const { token } = await signIn(t.app, t.admin.username, t.admin.password);
  return { ...t, headers: authHeader(token) };
}

describe('device access information', () => {
  it('answers the MQTT and MQTT over TLS ports the gateway bound, and the certificate fingerprint', async () => {
    const t = await signedIn();
    const res = await t.app.inject({ method: 'GET', url: deviceAccessRoutes.info.url, headers: t.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json<DeviceAccess>();
    const transport = t.app.services!.transport!;
    // The test app asks for ephemeral ports: the answer is what was bound, not the defaults.
    expect(body.mqttPort).toBe(transport.mqttPort);
    expect(body.mqttPort).not.toBe(1883);
    expect(body.mqttsPort).toBe(transport.mqttsPort);
    const pem = readFileSync(transport.mqttsCertificate!.certFile, 'utf8');
    expect(body.mqttsFingerprint).toBe(new X509Certificate(pem).fingerprint256);
  });

  it('hands out the TLS certificate as a PEM file that devices can pin', async () => {
    const t = await signedIn();
    const res = await t.app.inject({ method: 'GET', url: deviceAccessRoutes.certificate.url, headers: t.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-pem-file');
    expect(res.headers['content-disposition']).toContain('gateway-mqtts.pem');
    const served = new X509Certificate(res.body);
    expect(served.fingerprint256).toBe(t.app.services!.transport!.mqttsCertificate!.fingerprint256);
    expect(res.body).not.toContain('PRIVATE KEY');
  });

  it('says TLS is off, and has no certificate to give, when the TLS port is turned off', async () => {
    const t = await signedIn({ mqttsPort: null });
    const info = await t.app.inject({ method: 'GET', url: deviceAccessRoutes.info.url, headers: t.headers });
    expect(info.json()).toMatchObject({ mqttsPort: null, mqttsFingerprint: null });
    const cert = await t.app.inject({ method: 'GET', url: deviceAccessRoutes.certificate.url, headers: t.headers });
    expectError(cert, 404, 32, 'error.transport.tlsOff');
  });

  it('tells nothing to a caller who is not signed in', async () => {
    const t = await signedIn();
    for (const url of [deviceAccessRoutes.info.url, deviceAccessRoutes.certificate.url]) {
      expectError(await t.app.inject({ method: 'GET', url }), 401, 10, 'error.auth.required');
    }
  });
});
