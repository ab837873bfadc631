/**
 * Issuing licences: the one implementation behind `scripts/license.ts` and the test helpers. The
 * gateway itself never issues; it only verifies (license-verify.ts).
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import Value from 'typebox/value';
import { LicensePayloadSchema, type LicenseFile, type LicensePayload } from '../../contract/license.ts';
import { keyIdOf } from './license-keys.ts';

export const LICENSE_FORMAT = 'edge-console-license/1' as const;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface LicenseKeyPair {
  publicKeyPem: string;
  privateKeyPem: string;
}

export function generateLicenseKeyPair(): LicenseKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** The payload as JSON text with a fixed key order, so the same licence always signs the same bytes. */
export function canonicalPayload(p: LicensePayload): string {
  return JSON.stringify({
    licenseId: p.licenseId,
    customer: p.customer,
    device: p.device,
    issuedAt: p.issuedAt,
    expiresAt: p.expiresAt,
    maxDevices: p.maxDevices,
    features: p.features,
  });
}

export interface IssueOptions {
  privateKeyPem: string;
  /** A device serial number, or '*' for any device. */
  device: string;
  /** Validity from `issuedAt`; ignored when `expiresAt` is given. */
  days?: number;
  expiresAt?: number;
  issuedAt?: number;
  customer?: string;
  maxDevices?: number;
  features?: string[];
  licenseId?: string;
}

/** Signs a licence and returns the `.lic` file's bytes. Throws on a key that is not Ed25519 or a bad term. */
export function issueLicense(opts: IssueOptions): Buffer {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: opts.privateKeyPem, format: 'pem' });
  } catch {
    throw new Error('the private key is not a PEM private key');
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new Error(`the private key is not an Ed25519 key (found ${privateKey.asymmetricKeyType ?? 'unknown'})`);
  }
  const issuedAt = opts.issuedAt ?? Date.now();
  let expiresAt = opts.expiresAt;
  if (expiresAt === undefined) {
    const days = opts.days ?? 365;
    if (!(days > 0)) throw new Error(`days must be positive (got ${days})`);
    expiresAt = issuedAt + Math.round(days * DAY_MS);
  }
  const payload: LicensePayload = {
    licenseId: opts.licenseId ?? randomUUID(),
    customer: opts.customer ?? '',
    device: opts.device,
    issuedAt,
    expiresAt,
    maxDevices: opts.maxDevices ?? 0,
    features: opts.features ?? [],
  };
  // Refuse here what every gateway would refuse as a malformed file.
  const problem = [...Value.Errors(LicensePayloadSchema, payload)][0];
  if (problem) throw new Error(`licence field ${problem.instancePath.slice(1) || 'payload'} ${problem.message}`);
  const text = canonicalPayload(payload);
  const file: LicenseFile = {
    format: LICENSE_FORMAT,
    payload: text,
    signature: sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64'),
    keyId: keyIdOf(createPublicKey(privateKey)),
  };
  return Buffer.from(`${JSON.stringify(file, null, 2)}\n`, 'utf8');
}
