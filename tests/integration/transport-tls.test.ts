import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { join } from 'node:path';
import { connect as connectTls, type TLSSocket } from 'node:tls';
import { connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../server/app.ts';
import { ConfigError } from '../../server/config.ts';
import { credentialsRoutes } from '../../server/contract/credentials.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { selfSignedCertificate } from '../../server/lib/self-signed-cert.ts';
import { TLS_CERT_FILE, TLS_KEY_FILE } from '../../server/modules/transport/mqtt-tls.ts';
import { makeApp, tempDir } from '../helpers/app.ts';
import { makeDeviceApp, type DeviceApi } from '../helpers/devices.ts';
import { closedBy, connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';

const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync(true).catch(() => undefined)));
});

interface ClientIdentity {
  key: string;
  cert: string;
}

/** A device's key pair and self-signed certificate, as `openssl req -x509 -newkey rsa:2048` makes them. */
function deviceIdentity(type: 'rsa' | 'ec' = 'rsa'): ClientIdentity {
  const keys = type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const now = Date.now();
  const cert = selfSignedCertificate({
    ...keys,
    commonName: 'any name: the key identifies the device',
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 86_400_000),
    usage: 'client',
  });
  return { key: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), cert };
}

function gatewayCertificate(app: App): string {
  return readFileSync(app.services!.transport!.mqttsCertificate!.certFile, 'utf8');
}

/** An MQTT over TLS client that trusts only the gateway's certificate (checked against the IP it dialled). */
async function connectTlsDevice(app: App, options: IClientOptions = {}): Promise<MqttClient> {
  const url = `mqtts://127.0.0.1:${app.services!.transport!.mqttsPort}`;
  const client = await connectAsync(url, { reconnectPeriod: 0, connectTimeout: 5000, ca: gatewayCertificate(app), rejectUnauthorized: true, ...options });
  clients.push(client);
  return client;
}

async function refusedOverTls(app: App, options: IClientOptions): Promise<Error & { code?: number }> {
  try {
    await connectTlsDevice(app, options);
  } catch (err) {
    return err as Error & { code?: number };
  }
  throw new Error('the connection was accepted');
}

/** The certificate the TLS port presents in its handshake. */
async function presentedCertificate(port: number): Promise<X509Certificate> {
  const socket = connectTls({ host: '127.0.0.1', port, rejectUnauthorized: false });
  await once(socket, 'secureConnect');
  const cert = socket.getPeerX509Certificate()!;
  socket.destroy();
  return cert;
}

async function useX509(api: DeviceApi, deviceId: string, identity: ClientIdentity): Promise<void> {
  await api.ok(credentialsRoutes.update, { params: { id: deviceId }, body: { credentialsType: 'X509_CERTIFICATE', credentialsValue: identity.cert } });
}

describe('MQTT over TLS', () => {
  it('lets an X.509 device in by its self-signed client certificate, and its QoS 1 telemetry lands in history', async () => {
    const { app, api } = await makeDeviceApp();
    const device = await api.createDevice();
    const identity = deviceIdentity();
    await useX509(api, device.id, identity);
    const client = await connectTlsDevice(app, { ...identity, clientId: 'x509-sensor' });
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 1_700_000_000_000, values: { temperature: 21.5 } }), { qos: 1 });
    const history = await api.ok(telemetryRoutes.timeseries, {
      params: { id: device.id },
      query: { keys: 'temperature', startTs: 0, endTs: Date.now(), orderBy: 'ASC', limit: 10 },
    });
    expect(history.temperature).toEqual([{ ts: 1_700_000_000_000, value: 21.5 }]);
    expect(app.services!.transport!.isOnline(device.id)).toBe(true);
  });

  it('refuses with CONNACK 5 a certificate no device holds, an EC certificate, and a certificate with a valid token beside it', async () => {
    const { app, api } = await makeDeviceApp();
    const device = await api.createDevice();
    const token = await tokenOf(api, device.id);
    expect((await refusedOverTls(app, deviceIdentity())).code).toBe(5);
    // X509_CERTIFICATE credentials hold RSA public keys; an EC key is refused.
    expect((await refusedOverTls(app, deviceIdentity('ec'))).code).toBe(5);
    // The certificate decides alone, as in ThingsBoard: a token does not rescue an unknown one.
    expect((await refusedOverTls(app, { ...deviceIdentity(), username: token })).code).toBe(5);
    expect(app.services!.transport!.statsSnapshot().refused.authentication).toBe(3);
  });

  it('lets an access-token device in over TLS with its token, and refuses a device without credentials', async () => {
    const { app, api } = await makeDeviceApp();
    const device = await api.createDevice();
    const client = await connectTlsDevice(app, { username: await tokenOf(api, device.id) });
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ level: 3 }), { qos: 1 });
    const latest = await api.ok(telemetryRoutes.timeseries, { params: { id: device.id }, query: { keys: 'level' } });
    expect(latest.level?.[0]?.value).toBe(3);
    expect((await refusedOverTls(app, {})).code).toBe(5);
  });

  it('drops an X.509 device when its credentials change to another key', async () => {
    const { app, api } = await makeDeviceApp();
    const device = await api.createDevice();
    const first = deviceIdentity();
    await useX509(api, device.id, first);
    const client = await connectTlsDevice(app, first);
    const closed = closedBy(client);
    await useX509(api, device.id, deviceIdentity());
    await closed;
    expect((await refusedOverTls(app, first)).code).toBe(5);
  });

  it('makes its certificate at first boot (key 0600), presents it, and keeps it across a restart', async () => {
    const first = await makeApp();
    const keyFile = join(first.dataDir, TLS_KEY_FILE);
    const certFile = join(first.dataDir, TLS_CERT_FILE);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const cert = new X509Certificate(readFileSync(certFile));
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(first.app.services!.transport!.mqttsCertificate).toEqual({ certFile, fingerprint256: cert.fingerprint256 });
    expect((await presentedCertificate(first.app.services!.transport!.mqttsPort!)).fingerprint256).toBe(cert.fingerprint256);

    const key = readFileSync(keyFile, 'utf8');
    await first.app.close();
    const second = await makeApp({ dataDir: first.dataDir });
    expect(readFileSync(keyFile, 'utf8')).toBe(key);
    expect((await presentedCertificate(second.app.services!.transport!.mqttsPort!)).fingerprint256).toBe(cert.fingerprint256);
  });

  it("presents the operator's certificate and key when given, and refuses a key that is not the certificate's", async () => {
    const dir = tempDir();
    const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const cert = selfSignedCertificate({ ...keys, commonName: 'gw.example', dnsNames: ['gw.example'], notBefore: new Date(), notAfter: new Date(Date.now() + 86_400_000), usage: 'server' });
    writeFileSync(join(dir, 'cert.pem'), cert);
    writeFileSync(join(dir, 'key.pem'), keys.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(dir, 'other.pem'), generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));

    const { app, dataDir } = await makeApp({ mqttsCert: join(dir, 'cert.pem'), mqttsKey: join(dir, 'key.pem') });
    expect((await presentedCertificate(app.services!.transport!.mqttsPort!)).fingerprint256).toBe(new X509Certificate(cert).fingerprint256);
    expect(() => statSync(join(dataDir, TLS_KEY_FILE))).toThrow();
    await expect(makeApp({ mqttsCert: join(dir, 'cert.pem'), mqttsKey: join(dir, 'other.pem') })).rejects.toThrow(ConfigError);
    await expect(makeApp({ mqttsCert: join(dir, 'missing.pem'), mqttsKey: join(dir, 'key.pem') })).rejects.toThrow(/--mqtts-cert: cannot read/);
  });

  it('closes a plain MQTT connection to the TLS port and keeps serving', async () => {
    const { app, api } = await makeDeviceApp();
    const device = await api.createDevice();
    const token = await tokenOf(api, device.id);
    const plain = connectTcp({ host: '127.0.0.1', port: app.services!.transport!.mqttsPort! });
    await once(plain, 'connect');
    // CONNECT, MQTT 3.1.1, clean session, keep-alive 60, client id "p".
    plain.write(Buffer.from([0x10, 0x0d, 0x00, 0x04, 0x4d, 0x51, 0x54, 0x54, 0x04, 0x02, 0x00, 0x3c, 0x00, 0x01, 0x70]));
    plain.resume();
    await once(plain, 'close');
    await eventually(() => app.services!.transport!.statsSnapshot().refused.tlsHandshake, (n) => n === 1);

    const client = await connectTlsDevice(app, { username: token });
    expect(client.connected).toBe(true);
    const overPlainPort = await connectDevice(app, { username: token, clientId: 'plain-too' });
    expect(overPlainPort.connected).toBe(true);
  });

  it('closes a TLS connection announcing a packet over 1 MB, as on the plain port', async () => {
    const { app } = await makeDeviceApp();
    const socket: TLSSocket = connectTls({ host: '127.0.0.1', port: app.services!.transport!.mqttsPort!, ca: gatewayCertificate(app) });
    await once(socket, 'secureConnect');
    // PUBLISH whose remaining length says 2 MB (0x80 0x80 0x80 0x01).
    socket.write(Buffer.from([0x30, 0x80, 0x80, 0x80, 0x01]));
    socket.resume();
    await once(socket, 'close');
    expect(app.services!.transport!.statsSnapshot().refused.frameTooLarge).toBe(1);
  });

  it('opens no TLS port with --mqtts-port off', async () => {
    const { app, dataDir } = await makeApp({ mqttsPort: null });
    expect(app.services!.transport!.mqttsPort).toBeNull();
    expect(app.services!.transport!.mqttsCertificate).toBeNull();
    expect(() => statSync(join(dataDir, TLS_KEY_FILE))).toThrow();
  });
});
