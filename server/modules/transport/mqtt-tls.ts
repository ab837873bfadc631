/**
 * MQTT over TLS (ThingsBoard's MQTT over SSL, port 8883): the broker's certificate and key, and
 * the client certificate a device presents.
 *
 * The certificate is the operator's (`--mqtts-cert` / `--mqtts-key`) or, by default, a self-signed
 * P-256 one made at first boot in the data dir (`mqtts-key.pem` 0600, `mqtts-cert.pem`) and kept:
 * devices pin it (`--cafile`), so it must survive restarts. It never expires (RFC 5280 4.1.2.5's
 * 99991231235959Z): a gateway whose clock is wrong at first boot, or a device that cannot renew a
 * pin, would otherwise lose TLS one day; an operator who wants rotation brings their own.
 *
 * Devices with X509_CERTIFICATE credentials present their certificate in the handshake and are
 * matched by its public key (CredentialsService.authenticateX509), as ThingsBoard does for
 * "X.509 Certificate" credentials: no CA, CN ignored.
 */
import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { TLSSocket, type TlsOptions } from 'node:tls';
import { ConfigError, type Config } from '../../config.ts';
import { writePrivate } from '../../lib/secrets.ts';
import { selfSignedCertificate } from '../../lib/self-signed-cert.ts';

export const TLS_KEY_FILE = 'mqtts-key.pem';
export const TLS_CERT_FILE = 'mqtts-cert.pem';
/** A TLS handshake not done by then closes the socket (the MQTT CONNECT has the same limit). */
const HANDSHAKE_TIMEOUT_MS = 10_000;
const NEVER_EXPIRES = new Date('9999-12-31T23:59:59Z');
const DAY_MS = 24 * 60 * 60 * 1000;

export interface TlsIdentity {
  /** PEM: the certificate (or chain) and its private key. */
  cert: string;
  key: string;
  /** Where the certificate is, for device makers to copy. */
  certFile: string;
  /** SHA-256 of the (first) certificate's DER, `AB:CD:…`, as `openssl x509 -fingerprint -sha256` prints it. */
  fingerprint256: string;
}

/** The names a device may dial the gateway by, as known at first boot. */
function gatewayNames(host: string): { dnsNames: string[]; ipAddresses: string[] } {
  const own = hostname();
  const dnsNames = ['localhost', ...(/^[A-Za-z0-9.-]+$/.test(own) && own !== 'localhost' ? [own] : [])];
  const ipAddresses = new Set(['127.0.0.1', '::1']);
  if (host !== '0.0.0.0' && host !== '::' && /^[0-9.:a-fA-F]+$/.test(host)) ipAddresses.add(host);
  for (const list of Object.values(networkInterfaces())) {
    for (const nic of list ?? []) if (nic.family === 'IPv4' && !nic.internal) ipAddresses.add(nic.address);
  }
  return { dnsNames, ipAddresses: [...ipAddresses] };
}

function generate(dataDir: string, host: string): void {
  const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const cert = selfSignedCertificate({
    ...keys,
    commonName: hostname() || 'edge-console',
    ...gatewayNames(host),
    // A day back: a device whose clock is a little behind still accepts it.
    notBefore: new Date(Date.now() - DAY_MS),
    notAfter: NEVER_EXPIRES,
    usage: 'server',
  });
  writePrivate(join(dataDir, TLS_KEY_FILE), keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  writeFileSync(join(dataDir, TLS_CERT_FILE), cert, { mode: 0o644 });
}

function readPem(file: string, flag: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${flag}: cannot read ${file}: ${(err as Error).message}`);
  }
}

/**
 * The operator's certificate and key, or the generated ones (made now when either file is missing).
 * A certificate that does not parse or does not belong to the key is a ConfigError.
 */
export function loadTlsIdentity(config: Pick<Config, 'dataDir' | 'host' | 'mqttsCert' | 'mqttsKey'>): TlsIdentity {
  const own = config.mqttsCert === null || config.mqttsKey === null;
  const certFile = own ? join(config.dataDir, TLS_CERT_FILE) : config.mqttsCert!;
  const keyFile = own ? join(config.dataDir, TLS_KEY_FILE) : config.mqttsKey!;
  if (own && !(existsSync(certFile) && existsSync(keyFile))) generate(config.dataDir, config.host);
  const cert = readPem(certFile, '--mqtts-cert');
  const key = readPem(keyFile, '--mqtts-key');
  let parsed: X509Certificate;
  try {
    parsed = new X509Certificate(cert);
    if (!parsed.checkPrivateKey(createPrivateKey(key))) throw new Error('the key does not belong to the certificate');
  } catch (err) {
    throw new ConfigError(`--mqtts-cert / --mqtts-key (${certFile}, ${keyFile}): ${(err as Error).message}`);
  }
  return { cert, key, certFile, fingerprint256: parsed.fingerprint256 };
}

/** Options of the broker's TLS server. */
export function tlsServerOptions(identity: TlsIdentity): TlsOptions {
  return {
    cert: identity.cert,
    key: identity.key,
    // Ask for a client certificate but take any, self-signed included: a device is matched by its
    // certificate's public key against X509_CERTIFICATE credentials, not by who issued it, and the
    // handshake's CertificateVerify already proved it holds the private key. Devices without one
    // (access tokens, MQTT basic) use TLS for encryption only.
    requestCert: true,
    rejectUnauthorized: false,
    handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
  };
}

/** The PEM certificate a TLS client presented, or null (plain TCP, or no certificate sent). */
export function clientCertificate(conn: Duplex): string | null {
  if (!(conn instanceof TLSSocket)) return null;
  return conn.getPeerX509Certificate()?.toString() ?? null;
}
