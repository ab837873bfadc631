import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../server/lib/self-signed-cert.ts';

const notBefore = new Date('2026-01-01T00:00:00Z');

describe('self-signed certificate', () => {
  it('writes a P-256 server certificate that parses, verifies with its own key and names its hosts', () => {
    const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = selfSignedCertificate({
      ...keys,
      commonName: 'edge-console',
      dnsNames: ['localhost', 'gateway.local'],
      ipAddresses: ['127.0.0.1', '::1'],
      notBefore,
      notAfter: new Date('9999-12-31T23:59:59Z'),
      usage: 'server',
    });
    const cert = new X509Certificate(pem);
    expect(cert.verify(keys.publicKey)).toBe(true);
    expect(cert.publicKey.equals(keys.publicKey)).toBe(true);
    expect(cert.subject).toBe('CN=edge-console');
    expect(cert.issuer).toBe('CN=edge-console');
    expect(cert.ca).toBe(false);
    expect(cert.checkHost('gateway.local')).toBe('gateway.local');
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkIP('::1')).toBe('::1');
    expect(cert.checkIP('10.0.0.1')).toBeUndefined();
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    // Through 2049 UTCTime, from 2050 GeneralizedTime: both must read back as the same instant.
    expect(new Date(cert.validFrom).getTime()).toBe(notBefore.getTime());
    expect(new Date(cert.validTo).getTime()).toBe(new Date('9999-12-31T23:59:59Z').getTime());
  });

  it('writes an RSA client certificate that verifies with its key and not with another', () => {
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = selfSignedCertificate({ ...keys, commonName: 'sensor-7', notBefore, notAfter: new Date('2027-01-01T00:00:00Z'), usage: 'client' });
    const cert = new X509Certificate(pem);
    expect(cert.verify(keys.publicKey)).toBe(true);
    expect(cert.verify(other.publicKey)).toBe(false);
    expect(cert.subjectAltName).toBeUndefined();
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(cert.serialNumber).toMatch(/^[0-9A-F]{32}$/);
  });

  it('refuses a key it cannot sign a certificate with', () => {
    const keys = generateKeyPairSync('ed25519');
    expect(() => selfSignedCertificate({ ...keys, commonName: 'x', notBefore, notAfter: notBefore, usage: 'client' })).toThrow(/unsupported key type/);
  });
});
