import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyIdOf, readLicenseKeyFiles, trustedKeyMap } from '../../server/modules/license/license-keys.ts';
import { tempDir } from '../helpers/app.ts';
import { ISSUED_AT_SKEW_MS, verifyLicense } from '../../server/modules/license/license-verify.ts';
import { generateKeyPair, issueLicense } from '../helpers/license.ts';

const SN = 'EC-0123456789AB';
const issuer = generateKeyPair();
const trusted = trustedKeyMap([issuer.publicKeyPem]);
const now = Date.now();

function asFile(lic: Buffer): { format: string; payload: string; signature: string; keyId: string } {
  return JSON.parse(lic.toString('utf8')) as { format: string; payload: string; signature: string; keyId: string };
}

function check(lic: Buffer | string, at = now) {
  return verifyLicense(lic, trusted, SN, at);
}

describe('licence verification', () => {
  it('accepts a licence for any device (*)', () => {
    const result = check(issueLicense({ privateKeyPem: issuer.privateKeyPem, device: '*', customer: 'ACME', maxDevices: 50 }));
    expect(result).toMatchObject({ ok: true, payload: { device: '*', customer: 'ACME', maxDevices: 50 } });
  });

  it("accepts a licence naming this gateway's exact serial number", () => {
    expect(check(issueLicense({ privateKeyPem: issuer.privateKeyPem, device: SN }))).toMatchObject({ ok: true, payload: { device: SN } });
  });

  it('refuses a licence whose payload was altered by one byte', () => {
    const file = asFile(issueLicense({ privateKeyPem: issuer.privateKeyPem, maxDevices: 10 }));
    file.payload = file.payload.replace('"maxDevices":10', '"maxDevices":90');
    expect(check(JSON.stringify(file))).toEqual({ ok: false, key: 'error.license.badSignature', params: {} });
  });

  it('refuses a licence whose signature was altered', () => {
    const file = asFile(issueLicense({ privateKeyPem: issuer.privateKeyPem }));
    const sig = Buffer.from(file.signature, 'base64');
    sig[10] = sig[10]! ^ 0x01;
    file.signature = sig.toString('base64');
    expect(check(JSON.stringify(file))).toMatchObject({ ok: false, key: 'error.license.badSignature' });
  });

  it('refuses a signature of the wrong length instead of throwing', () => {
    const file = { ...asFile(issueLicense({ privateKeyPem: issuer.privateKeyPem })), signature: 'AAAA' };
    expect(check(JSON.stringify(file))).toMatchObject({ ok: false, key: 'error.license.badSignature' });
  });

  it('refuses a licence signed by a key the gateway does not trust', () => {
    const stranger = generateKeyPair();
    expect(check(issueLicense({ privateKeyPem: stranger.privateKeyPem }))).toMatchObject({ ok: false, key: 'error.license.untrustedKey' });
  });

  it("refuses a stranger's signature even when the file claims a trusted key id", () => {
    const stranger = generateKeyPair();
    const file = asFile(issueLicense({ privateKeyPem: stranger.privateKeyPem }));
    file.keyId = asFile(issueLicense({ privateKeyPem: issuer.privateKeyPem })).keyId;
    expect(check(JSON.stringify(file))).toMatchObject({ ok: false, key: 'error.license.badSignature' });
  });

  it('refuses a licence for another device and names this serial number', () => {
    expect(check(issueLicense({ privateKeyPem: issuer.privateKeyPem, device: 'EC-FFFFFFFFFFFF' }))).toEqual({
      ok: false,
      key: 'error.license.wrongDevice',
      params: { deviceSn: SN },
    });
  });

  it('refuses an expired licence, including one expiring exactly now', () => {
    expect(check(issueLicense({ privateKeyPem: issuer.privateKeyPem, issuedAt: now - 10_000, expiresAt: now - 1 }))).toMatchObject({
      ok: false,
      key: 'error.license.expired',
    });
    expect(check(issueLicense({ privateKeyPem: issuer.privateKeyPem, issuedAt: now - 10_000, expiresAt: now }))).toMatchObject({
      ok: false,
      key: 'error.license.expired',
    });
  });

  it('refuses a licence issued in the future beyond the clock skew, and tolerates the skew', () => {
    const ahead = issueLicense({ privateKeyPem: issuer.privateKeyPem, issuedAt: now + ISSUED_AT_SKEW_MS + 60_000, days: 30 });
    expect(check(ahead)).toMatchObject({ ok: false, key: 'error.license.notYetValid' });
    const slightlyAhead = issueLicense({ privateKeyPem: issuer.privateKeyPem, issuedAt: now + ISSUED_AT_SKEW_MS - 60_000, days: 30 });
    expect(check(slightlyAhead)).toMatchObject({ ok: true });
  });

  it('refuses malformed files: not JSON, another format, missing fields, a signed payload of the wrong shape', () => {
    expect(check('not json at all')).toMatchObject({ ok: false, key: 'error.license.invalidFile' });
    const file = asFile(issueLicense({ privateKeyPem: issuer.privateKeyPem }));
    expect(check(JSON.stringify({ ...file, format: 'edge-console-license/2' }))).toMatchObject({ key: 'error.license.invalidFile' });
    expect(check(JSON.stringify({ format: file.format, payload: file.payload }))).toMatchObject({ key: 'error.license.invalidFile' });
    expect(check(JSON.stringify([file]))).toMatchObject({ key: 'error.license.invalidFile' });

    const privateKey = createPrivateKey(issuer.privateKeyPem);
    const payload = JSON.stringify({ licenseId: 'L1', device: '*' });
    const wrongShape = {
      format: 'edge-console-license/1',
      payload,
      signature: sign(null, Buffer.from(payload), privateKey).toString('base64'),
      keyId: keyIdOf(createPublicKey(privateKey)),
    };
    expect(check(JSON.stringify(wrongShape))).toMatchObject({ ok: false, key: 'error.license.invalidFile' });
  });

  it('accepts the file re-serialised with other whitespace, since only the payload text is signed', () => {
    const file = asFile(issueLicense({ privateKeyPem: issuer.privateKeyPem }));
    expect(check(JSON.stringify(file))).toMatchObject({ ok: true });
  });
});

describe('trusted keys', () => {
  it('refuses to trust a key that is not Ed25519', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(() => trustedKeyMap([rsa])).toThrow(/Ed25519/);
    expect(() => trustedKeyMap(['garbage'])).toThrow(/PEM/);
  });

  it('reads --license-public-key files and names the file that holds no Ed25519 public key', () => {
    const dir = tempDir();
    const good = join(dir, 'good.pem');
    const bad = join(dir, 'bad.pem');
    writeFileSync(good, issuer.publicKeyPem);
    writeFileSync(bad, issuer.privateKeyPem.replace(/PRIVATE/g, 'PUBLIC'));
    expect(readLicenseKeyFiles([good])).toEqual([issuer.publicKeyPem]);
    expect(() => readLicenseKeyFiles([good, bad])).toThrow(bad);
    expect(() => readLicenseKeyFiles([join(dir, 'missing.pem')])).toThrow(/missing\.pem: cannot read \(ENOENT\)/);
  });
});
