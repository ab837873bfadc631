/**
 * Licence helpers for tests: key pairs and signed `.lic` files, made by the same code the
 * `npm run license` tool uses (server/modules/license/license-issue.ts).
 */
import {
  generateLicenseKeyPair,
  issueLicense as issue,
  type IssueOptions,
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

/** The issuing options, with the device defaulting to '*'. */
export type TestLicenseOptions = Omit<IssueOptions, 'device'> & { device?: string };

/** A signed `.lic` file's bytes; valid for 30 days for any device unless told otherwise. */
export function issueLicense(opts: TestLicenseOptions): Buffer {
  return issue({
    ...opts,
    device: opts.device ?? '*',
    days: opts.days ?? 30,
    customer: opts.customer ?? 'Test customer',
  });
}
