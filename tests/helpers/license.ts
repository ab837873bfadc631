/**
 * Licence helpers for tests: key pairs and signed `.lic` files, made by the same code the
 * `npm run license` tool uses (server/modules/license/license-issue.ts).
 */
import {
  generateLicenseKeyPair,
  issueLicense as issue,
  type LicenseKeyPair,
} from '../../server/modules/license/license-issue.ts';

export type { LicenseKeyPair };

export function generateKeyPair(): LicenseKeyPair {
  return generateLicenseKeyPair();
}

let shared: LicenseKeyPair | undefined;
/**
 * One key pair per test process, for tests that only need "some trusted key": pass
 * `embeddedLicenseKeys: [testLicenseKeys().publicKeyPem]` to makeApp.
 */
export function testLicenseKeys(): LicenseKeyPair {
  shared ??= generateLicenseKeyPair();
  return shared;
}

export interface TestLicenseOptions {
  privateKeyPem: string;
  /** Serial number or '*' (the default). */
  device?: string;
  days?: number;
  expiresAt?: number;
  issuedAt?: number;
  customer?: string;
  maxDevices?: number;
  features?: string[];
}

/** A signed `.lic` file's bytes; valid for 30 days for any device unless told otherwise. */
export function issueLicense(opts: TestLicenseOptions): Buffer {
  return issue({
    ...opts,
    device: opts.device ?? '*',
    days: opts.days ?? 30,
    customer: opts.customer ?? 'Test customer',
  });
}
