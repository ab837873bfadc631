/**
 * The built binary for the e2e specs, trusting a licence key made for the run (written to a temp
 * PEM and passed with --license-public-key), plus first boot over HTTP as a provisioning script
 * does it: licence upload and administrator creation with the setup code header.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authRoutes, type TokenPair } from '../../server/contract/auth.ts';
import { licenseRoutes, SETUP_CODE_HEADER, type LicenseInfo } from '../../server/contract/license.ts';
import { startBinary, type RunningBinary, type StartOptions } from './binary.ts';
import { generateKeyPair, issueLicense, type TestLicenseOptions } from './license.ts';

export interface Admin {
  username: string;
  password: string;
}

export const E2E_ADMIN: Admin = { username: 'admin', password: 'Edge@Console1' };

export interface E2eGateway extends RunningBinary {
  /** A signed `.lic` from the key this gateway trusts (30 days, any device, unless told). */
  license(opts?: Omit<TestLicenseOptions, 'privateKeyPem'>): Buffer;
  /** Writes a licence to a temp file (for the browser's file input) and returns its path. */
  licenseFile(opts?: Omit<TestLicenseOptions, 'privateKeyPem'>): string;
  /** Uploads a licence with the setup code (first boot) and creates the administrator; cloud skipped. */
  provision(opts?: { licence?: Buffer; admin?: Admin; platformName?: string }): Promise<Admin>;
  login(admin?: Admin): Promise<TokenPair>;
  licenseStatus(): Promise<LicenseInfo['status']>;
}

/** `opts` go to startBinary; its flags come after the trusted licence key's. */
export async function startE2eGateway(opts: StartOptions = {}): Promise<E2eGateway> {
  const keys = generateKeyPair();
  const keyDir = mkdtempSync(join(tmpdir(), 'edge-e2e-keys-'));
  const publicKeyFile = join(keyDir, 'license-public.pem');
  writeFileSync(publicKeyFile, keys.publicKeyPem);
  const bin = await startBinary({ ...opts, args: ['--license-public-key', publicKeyFile, ...(opts.args ?? [])] });
  let files = 0;

  const license: E2eGateway['license'] = (opts = {}) => issueLicense({ ...opts, privateKeyPem: keys.privateKeyPem });

  const call = async <T>(method: string, url: string, body: BodyInit | object | undefined, headers: Record<string, string> = {}): Promise<T> => {
    const json = body !== undefined && !(body instanceof FormData);
    const res = await fetch(`${bin.url}${url}`, {
      method,
      headers: { ...headers, ...(json ? { 'content-type': 'application/json' } : {}) },
      body: json ? JSON.stringify(body) : (body as BodyInit | undefined),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };

  return {
    ...bin,
    license,
    licenseFile(opts) {
      files += 1;
      const file = join(keyDir, `edge-${files}.lic`);
      writeFileSync(file, license(opts));
      return file;
    },
    async provision(opts = {}) {
      const admin = opts.admin ?? E2E_ADMIN;
      const setup = { [SETUP_CODE_HEADER]: bin.setupCode ?? '' };
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(opts.licence ?? license())]), 'edge.lic');
      await call(licenseRoutes.upload.method, licenseRoutes.upload.url, form, setup);
      await call(licenseRoutes.setupAdmin.method, licenseRoutes.setupAdmin.url, { ...admin, platformName: opts.platformName }, setup);
      return admin;
    },
    login(admin = E2E_ADMIN) {
      return call<TokenPair>(authRoutes.login.method, authRoutes.login.url, admin);
    },
    async licenseStatus() {
      return (await call<LicenseInfo>(licenseRoutes.find.method, licenseRoutes.find.url, undefined)).status;
    },
    async kill() {
      await bin.kill();
      rmSync(keyDir, { recursive: true, force: true });
    },
  };
}
