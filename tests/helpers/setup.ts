/**
 * First-boot steps over HTTP, as a provisioning script does them: upload the licence with the
 * setup code, skip the cloud, create the administrator. `provision` gives other tests a ready
 * gateway in one call.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'light-my-request';
import { licenseRoutes, SETUP_CODE_HEADER } from '../../server/contract/license.ts';
import { makeApp, type TestApp } from './app.ts';
import { issueLicense, testLicenseKeys } from './license.ts';
import { multipart } from './multipart.ts';

/** The setup code the gateway wrote at first boot. */
export function setupCodeOf(t: TestApp): string {
  return readFileSync(join(t.dataDir, 'setup-code'), 'utf8').trim();
}

export interface ActivateOptions {
  licFile: Buffer;
  /** Defaults to the code in `<dataDir>/setup-code`; pass null to send none. */
  setupCode?: string | null;
  /** Bearer token of a signed-in user, for uploads after first boot. */
  token?: string;
  filename?: string;
  acceptLanguage?: string;
}

/** Uploads a `.lic` file to POST /api/license/uploading and returns the raw response. */
export async function activate(t: TestApp, opts: ActivateOptions): Promise<Response> {
  const body = multipart({ file: { filename: opts.filename ?? 'edge.lic', content: opts.licFile } });
  const headers: Record<string, string> = { ...body.headers };
  const setupCode = opts.setupCode === undefined ? (opts.token ? null : setupCodeOf(t)) : opts.setupCode;
  if (setupCode !== null) headers[SETUP_CODE_HEADER] = setupCode;
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.acceptLanguage) headers['accept-language'] = opts.acceptLanguage;
  return t.app.inject({ method: 'POST', url: licenseRoutes.upload.url, headers, payload: body.payload });
}

export interface AdminCredentials {
  username: string;
  password: string;
}

export const DEFAULT_ADMIN: AdminCredentials = { username: 'admin', password: 'Edge@Console1' };

export interface ProvisionOptions {
  /** Signs the licence; defaults to testLicenseKeys(), which makeApp must trust. */
  privateKeyPem?: string;
  admin?: AdminCredentials;
  platformName?: string;
}

/**
 * Full first boot: licence for any device, cloud skipped, administrator created. The app must
 * trust the signing key, e.g. `makeApp({ embeddedLicenseKeys: [testLicenseKeys().publicKeyPem] })`
 * (or use makeProvisionedApp).
 */
export async function provision(t: TestApp, opts: ProvisionOptions = {}): Promise<AdminCredentials> {
  const admin = opts.admin ?? DEFAULT_ADMIN;
  const licFile = issueLicense({ privateKeyPem: opts.privateKeyPem ?? testLicenseKeys().privateKeyPem });
  const uploaded = await activate(t, { licFile });
  if (uploaded.statusCode !== 200) {
    throw new Error(
      `provision: licence upload answered ${uploaded.statusCode} ${uploaded.body}; ` +
        'does makeApp trust the key (embeddedLicenseKeys: [testLicenseKeys().publicKeyPem])?',
    );
  }
  const created = await t.app.inject({
    method: 'POST',
    url: licenseRoutes.setupAdmin.url,
    headers: { [SETUP_CODE_HEADER]: setupCodeOf(t) },
    payload: { ...admin, ...(opts.platformName ? { platformName: opts.platformName } : {}) },
  });
  if (created.statusCode !== 200) throw new Error(`provision: admin creation answered ${created.statusCode} ${created.body}`);
  return admin;
}

/** makeApp trusting the shared test key, then provision: a licensed gateway with an administrator. */
export async function makeProvisionedApp(
  overrides: Parameters<typeof makeApp>[0] = {},
  opts: Omit<ProvisionOptions, 'privateKeyPem'> = {},
): Promise<TestApp & { admin: AdminCredentials }> {
  const keys = testLicenseKeys();
  const t = await makeApp({ ...overrides, embeddedLicenseKeys: [...(overrides.embeddedLicenseKeys ?? []), keys.publicKeyPem] });
  const admin = await provision(t, { ...opts, privateKeyPem: keys.privateKeyPem });
  return { ...t, admin };
}
