import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { credentialsRoutes } from '../../server/contract/credentials.ts';
import { deviceApiRoutes } from '../../server/contract/device-api.ts';
import { licenseRoutes, type LicenseInfo, type SetupState } from '../../server/contract/license.ts';
import { readLicenseKeyFiles } from '../../server/modules/license/license-keys.ts';
import { ensureDevKeys } from '../../scripts/license.ts';
import { makeApp, tempDir, type TestApp } from '../helpers/app.ts';
import { ContractClient, DeviceApi } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';
import { generateKeyPair, issueLicense, type LicenseKeyPair } from '../helpers/license.ts';
import { ADMIN_PASSWORD, ADMIN_USERNAME, authHeader, createAdmin, signIn } from '../helpers/session.ts';
import { activate } from '../helpers/setup.ts';
import { multipart } from '../helpers/multipart.ts';

const EN = 'en-US,en;q=0.9';
const SN = 'TEST-SN-0001'; // makeApp's configured serial number

async function trustingApp(keys: LicenseKeyPair, overrides: Parameters<typeof makeApp>[0] = {}): Promise<TestApp> {
  return makeApp({ embeddedLicenseKeys: [keys.publicKeyPem], ...overrides });
}

async function findLicense(t: TestApp, token?: string): Promise<LicenseInfo> {
  const res = await t.app.inject({ method: 'GET', url: licenseRoutes.find.url, headers: token ? authHeader(token) : {} });
  expect(res.statusCode).toBe(200);
  return res.json() as LicenseInfo;
}

/** A token of the administrator (created now when there is none yet): the licence's customer is for signed-in callers. */
async function adminToken(t: TestApp): Promise<string> {
  if (!(await setupState(t)).adminCreated) return (await createAdmin(t)).token;
  return (await signIn(t.app, ADMIN_USERNAME, ADMIN_PASSWORD)).token;
}

async function setupState(t: TestApp): Promise<SetupState> {
  return (await t.app.inject({ method: 'GET', url: licenseRoutes.setupState.url })).json() as SetupState;
}

/** A licence-gated business call (no licenseFree): editing one's own profile. */
function gatedCall(t: TestApp, token: string, userId: string) {
  return t.app.inject({
    method: 'PUT',
    url: '/api/yt/user/center',
    headers: { ...authHeader(token), 'accept-language': EN },
    payload: { id: userId, realName: 'Edge Admin' },
  });
}

/** findLicense without a licence: the DESIGN fields are null, no features. */
const NO_LICENCE = {
  status: 'MISSING', license: null, devicesUsed: 0, licenseId: null, customer: null, issuedAt: null, expiresAt: null, daysLeft: null, maxDevices: null, features: [],
} as const;

describe('GET /api/license/findLicense', () => {
  it('answers without authentication that no licence is installed, with the serial number to license', async () => {
    const t = await makeApp();
    expect(await findLicense(t)).toEqual({ ...NO_LICENCE, deviceSn: SN });
  });
});

describe('POST /api/license/uploading', () => {
  const keys = generateKeyPair();

  it('installs a valid licence with the setup code and reports it VALID with its payload', async () => {
    const t = await trustingApp(keys);
    const lic = issueLicense({ privateKeyPem: keys.privateKeyPem, device: SN, customer: 'ACME Plant 3', maxDevices: 200, features: ['rules'] });
    const res = await activate(t, { licFile: lic });
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json() as LicenseInfo;
    expect(info).toMatchObject({ status: 'VALID', deviceSn: SN, license: { device: SN, customer: 'ACME Plant 3', maxDevices: 200, features: ['rules'] } });
    expect(await findLicense(t, (await createAdmin(t)).token)).toEqual(info);
  });

  it('answers the licence’s fields flat as well, with the whole days left rounded up', async () => {
    const t = await trustingApp(keys);
    const issuedAt = Date.now();
    const expiresAt = issuedAt + 20 * 24 * 3600_000 - 3600_000;
    await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem, device: SN, customer: 'ACME', licenseId: 'LIC-7', issuedAt, expiresAt, maxDevices: 50, features: ['rules', 'video'] }) });
    expect(await findLicense(t, (await createAdmin(t)).token)).toMatchObject({
      status: 'VALID', licenseId: 'LIC-7', customer: 'ACME', issuedAt, expiresAt, daysLeft: 20, maxDevices: 50, devicesUsed: 0, features: ['rules', 'video'],
    });
    expect(await findLicense(t)).toMatchObject({ customer: '', daysLeft: 20 });
  });

  it('names the licence’s customer only to a signed-in caller; the public status leaves it out', async () => {
    const t = await trustingApp(keys);
    await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem, device: SN, customer: 'ACME Plant 3' }) });
    const anonymous = await findLicense(t);
    expect(anonymous).toMatchObject({ status: 'VALID', license: { device: SN, customer: '' } });
    expect(await findLicense(t, 'not-a-token')).toEqual(anonymous);
    expect((await findLicense(t, (await createAdmin(t)).token)).license?.customer).toBe('ACME Plant 3');
  });

  it('refuses an upload without the setup code while no administrator exists', async () => {
    const t = await trustingApp(keys);
    const res = await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem }), setupCode: null, acceptLanguage: EN });
    expect(expectError(res, 401, 10, 'error.setup.codeRequired').message).toContain('setup code');
    expect((await findLicense(t)).status).toBe('MISSING');
  });

  it('refuses an upload with a wrong setup code', async () => {
    const t = await trustingApp(keys);
    const res = await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem }), setupCode: 'WRONGCODE123', acceptLanguage: EN });
    expect(expectError(res, 401, 10, 'error.setup.codeInvalid').message).toBe('The device setup code is incorrect');
  });

  it('accepts the setup code in lower case, as typed off a console log', async () => {
    const t = await trustingApp(keys);
    const code = readFileSync(join(t.dataDir, 'setup-code'), 'utf8').trim().toLowerCase();
    const res = await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem }), setupCode: code });
    expect(res.statusCode, res.body).toBe(200);
  });

  const refusals: { name: string; lic: () => Buffer; key: string; text: RegExp }[] = [
    {
      name: 'a licence signed by an untrusted key',
      lic: () => issueLicense({ privateKeyPem: generateKeyPair().privateKeyPem }),
      key: 'error.license.untrustedKey',
      text: /not issued by a trusted key/,
    },
    {
      name: 'a tampered licence (payload edited after signing)',
      lic: () => {
        const file = JSON.parse(issueLicense({ privateKeyPem: keys.privateKeyPem, maxDevices: 5 }).toString()) as { payload: string };
        file.payload = file.payload.replace('"maxDevices":5', '"maxDevices":5000');
        return Buffer.from(JSON.stringify(file));
      },
      key: 'error.license.badSignature',
      text: /tampered/,
    },
    {
      name: 'a licence for another device',
      lic: () => issueLicense({ privateKeyPem: keys.privateKeyPem, device: 'EC-OTHERDEVICE' }),
      key: 'error.license.wrongDevice',
      text: new RegExp(`another device .*${SN}`),
    },
    {
      name: 'an expired licence',
      lic: () => issueLicense({ privateKeyPem: keys.privateKeyPem, issuedAt: Date.now() - 86_400_000, expiresAt: Date.now() - 1000 }),
      key: 'error.license.expired',
      text: /expired/,
    },
    {
      name: 'a licence issued in the future',
      lic: () => issueLicense({ privateKeyPem: keys.privateKeyPem, issuedAt: Date.now() + 3_600_000, days: 30 }),
      key: 'error.license.notYetValid',
      text: /not valid yet/,
    },
    {
      name: 'a file that is not a licence',
      lic: () => Buffer.from('{"hello":"world"}'),
      key: 'error.license.invalidFile',
      text: /malformed/,
    },
  ];
  for (const refusal of refusals) {
    it(`refuses ${refusal.name} with code 31 and a readable message`, async () => {
      const t = await trustingApp(keys);
      const res = await activate(t, { licFile: refusal.lic(), acceptLanguage: EN });
      expect(expectError(res, 400, 31, refusal.key).message).toMatch(refusal.text);
      expect((await findLicense(t)).status).toBe('MISSING');
    });
  }

  it('answers refusals in Chinese by default', async () => {
    const t = await trustingApp(keys);
    const res = await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem, device: 'EC-OTHER' }) });
    const body = expectError(res, 400, 31, 'error.license.wrongDevice');
    expect(body.message).toMatch(/[\u4e00-\u9fa5]/);
    expect(body.message).toContain(SN);
  });

  it('refuses a file whose name does not end in .lic', async () => {
    const t = await trustingApp(keys);
    const res = await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem }), filename: 'licence.json', acceptLanguage: EN });
    expect(expectError(res, 400, 31, 'error.upload.badType').message).toContain('.lic');
    expect((await findLicense(t)).status).toBe('MISSING');
  });

  it('refuses a form without the file field, and an empty file', async () => {
    const t = await trustingApp(keys);
    const code = readFileSync(join(t.dataDir, 'setup-code'), 'utf8').trim();
    const noFile = multipart({ note: 'no file here' });
    const res = await t.app.inject({ method: 'POST', url: licenseRoutes.upload.url, headers: { ...noFile.headers, 'x-setup-code': code }, payload: noFile.payload });
    expectError(res, 400, 31, 'error.upload.fileRequired');
    const empty = await activate(t, { licFile: Buffer.alloc(0) });
    expectError(empty, 400, 31, 'error.upload.fileRequired');
  });

  it('asks for a file when the request is not multipart', async () => {
    const t = await trustingApp(keys);
    const code = readFileSync(join(t.dataDir, 'setup-code'), 'utf8').trim();
    const res = await t.app.inject({ method: 'POST', url: licenseRoutes.upload.url, headers: { 'x-setup-code': code }, payload: { file: 'x' } });
    expectError(res, 400, 31, 'error.upload.fileRequired');
  });

  it('refuses a file over 5 MB with 413', async () => {
    const t = await trustingApp(keys);
    const res = await activate(t, { licFile: Buffer.alloc(5 * 1024 * 1024 + 1, 0x20), acceptLanguage: EN });
    expect(expectError(res, 413, 31, 'error.upload.tooLarge').message).toContain('5 MB');
  });

  it('replaces an installed licence with a newer one', async () => {
    const t = await trustingApp(keys);
    await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem, customer: 'First' }) });
    const res = await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem, customer: 'Second' }) });
    expect(res.statusCode).toBe(200);
    expect((await findLicense(t, await adminToken(t))).license?.customer).toBe('Second');
  });

  it('refuses a licence that expires before the installed valid one, and keeps the installed one', async () => {
    const t = await trustingApp(keys);
    const longer = issueLicense({ privateKeyPem: keys.privateKeyPem, customer: 'Two years', days: 730 });
    expect((await activate(t, { licFile: longer })).statusCode).toBe(200);
    const res = await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem, customer: 'One year', days: 365 }), acceptLanguage: EN });
    const installedUntil = new Date(JSON.parse(JSON.parse(longer.toString()).payload).expiresAt).toISOString().slice(0, 10);
    expect(expectError(res, 400, 31, 'error.license.olderThanInstalled').message).toContain(installedUntil);
    expect(await findLicense(t, await adminToken(t))).toMatchObject({ status: 'VALID', license: { customer: 'Two years' } });
  });

  it('refuses a .lic file over 64 KB with 413 naming the limit', async () => {
    const t = await trustingApp(keys);
    const file = JSON.parse(issueLicense({ privateKeyPem: keys.privateKeyPem }).toString()) as Record<string, unknown>;
    const padded = Buffer.from(JSON.stringify({ ...file, padding: 'x'.repeat(64 * 1024) }));
    const res = await activate(t, { licFile: padded, acceptLanguage: EN });
    expect(expectError(res, 413, 31, 'error.upload.tooLarge').message).toContain('64 KB');
    expect((await findLicense(t)).status).toBe('MISSING');
  });

  it('stores only the fields of a licence file, not extra ones sent along', async () => {
    const t = await trustingApp(keys);
    const file = JSON.parse(issueLicense({ privateKeyPem: keys.privateKeyPem, customer: 'Lean' }).toString()) as Record<string, unknown>;
    const res = await activate(t, { licFile: Buffer.from(JSON.stringify({ ...file, notes: 'n'.repeat(20_000) })) });
    expect(res.statusCode, res.body).toBe(200);
    const db = new DatabaseSync(join(t.dataDir, 'edge.db'), { readOnly: true });
    const row = db.prepare("SELECT value FROM setting WHERE id = 'license'").get() as { value: string };
    db.close();
    const stored = JSON.parse((JSON.parse(row.value) as { file: string }).file) as Record<string, unknown>;
    expect(Object.keys(stored).sort()).toEqual(['format', 'keyId', 'payload', 'signature']);
    expect(row.value.length).toBeLessThan(4096);
    await t.app.close();
    const again = await trustingApp(keys, { dataDir: t.dataDir });
    expect(await findLicense(again, await adminToken(again))).toMatchObject({ status: 'VALID', license: { customer: 'Lean' } });
  });

  it('keeps a refused upload from replacing the installed licence', async () => {
    const t = await trustingApp(keys);
    await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem, customer: 'Kept' }) });
    await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem, device: 'EC-OTHER' }) });
    expect(await findLicense(t, await adminToken(t))).toMatchObject({ status: 'VALID', license: { customer: 'Kept' } });
  });
});

describe('licence upload over real HTTP', () => {
  it('accepts a browser-style FormData upload and refuses an oversized one without hanging', async () => {
    const keys = generateKeyPair();
    const t = await trustingApp(keys);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as { port: number };
    const url = `http://127.0.0.1:${port}${licenseRoutes.upload.url}`;
    const code = readFileSync(join(t.dataDir, 'setup-code'), 'utf8').trim();
    const send = (content: Buffer, filename: string) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(content)]), filename);
      return fetch(url, { method: 'POST', body: form, headers: { 'x-setup-code': code, 'accept-language': EN } });
    };

    const tooLarge = await send(Buffer.alloc(6 * 1024 * 1024, 0x20), 'big.lic');
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ code: 31, key: 'error.upload.tooLarge' });

    const ok = await send(issueLicense({ privateKeyPem: keys.privateKeyPem }), 'edge.lic');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ status: 'VALID' });
  });
});

describe('licence across restarts', () => {
  it('keeps the installed licence after a restart on the same data dir', async () => {
    const keys = generateKeyPair();
    const first = await trustingApp(keys);
    await activate(first, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem, customer: 'Durable' }) });
    await first.app.close();
    const second = await trustingApp(keys, { dataDir: first.dataDir });
    expect(await findLicense(second, await adminToken(second))).toMatchObject({ status: 'VALID', license: { customer: 'Durable' } });
  });

  it('treats the stored licence as missing once its signing key is no longer trusted', async () => {
    const keys = generateKeyPair();
    const first = await trustingApp(keys);
    await activate(first, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem }) });
    await first.app.close();
    const second = await makeApp({ dataDir: first.dataDir, embeddedLicenseKeys: [generateKeyPair().publicKeyPem] });
    expect(await findLicense(second)).toEqual({ ...NO_LICENCE, deviceSn: SN });
    expect((await setupState(second)).licensed).toBe(false);
  });

  it('treats a licence bound to this serial number as missing when the data dir moves to another device', async () => {
    const keys = generateKeyPair();
    const first = await trustingApp(keys);
    await activate(first, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem, device: SN }) });
    await first.app.close();
    const second = await trustingApp(keys, { dataDir: first.dataDir, deviceSn: 'TEST-SN-0002' });
    expect((await findLicense(second)).status).toBe('MISSING');
  });
});

describe('licence gate (code 99)', () => {
  it('answers business calls with 99 before a licence exists, and lets them through after', async () => {
    const keys = generateKeyPair();
    const t = await trustingApp(keys);
    const admin = await createAdmin(t);
    const before = await gatedCall(t, admin.token, admin.user.id);
    expect(expectError(before, 403, 99, 'error.license.required').message).toContain('not activated');

    // An administrator exists, so the setup code alone no longer opens the upload.
    const withCodeOnly = await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem }), acceptLanguage: EN });
    expectError(withCodeOnly, 401, 10, 'error.auth.required');

    const uploaded = await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem }), token: admin.token });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect((await gatedCall(t, admin.token, admin.user.id)).statusCode).toBe(200);
  });

  it('answers 99 once the licence expires, and a signed-in admin can upload a fresh one to resume', async () => {
    const keys = generateKeyPair();
    const t = await trustingApp(keys);
    const admin = await createAdmin(t);
    const expiresAt = Date.now() + 1500;
    const shortLived = issueLicense({ privateKeyPem: keys.privateKeyPem, expiresAt });
    expect((await activate(t, { licFile: shortLived, token: admin.token })).statusCode).toBe(200);
    expect((await gatedCall(t, admin.token, admin.user.id)).statusCode).toBe(200);

    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now()) + 50));

    expectError(await gatedCall(t, admin.token, admin.user.id), 403, 99, 'error.license.expired');
    expect(await setupState(t)).toMatchObject({ licensed: true, licenseExpired: true });
    expect((await findLicense(t)).status).toBe('EXPIRED');

    const fresh = await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem, days: 365 }), token: admin.token });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(await setupState(t)).toMatchObject({ licensed: true, licenseExpired: false });
    expect((await gatedCall(t, admin.token, admin.user.id)).statusCode).toBe(200);
  });
});

describe('device data after the licence expires', () => {
  it('keeps accepting telemetry from devices once the licence has expired: plant data is not dropped', async () => {
    const keys = generateKeyPair();
    const t = await trustingApp(keys);
    const admin = await createAdmin(t);
    const expiresAt = Date.now() + 1500;
    expect((await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem, expiresAt }), token: admin.token })).statusCode).toBe(200);
    const api = new DeviceApi(t.app, admin.token);
    const device = await api.createDevice();
    const { credentialsId } = await api.ok(credentialsRoutes.get, { params: { id: device.id } });

    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now()) + 50));
    expect((await findLicense(t)).status).toBe('EXPIRED');
    const sent = await new ContractClient(t.app, null).call(deviceApiRoutes.telemetry, { params: { accessToken: credentialsId }, body: { temperature: 21.5 } });
    expect(sent.statusCode, sent.body).toBe(200);
  });
});

describe('licence tool (npm run license)', () => {
  const tsx = join(process.cwd(), 'node_modules/.bin/tsx');
  const script = join(process.cwd(), 'scripts/license.ts');
  const run = promisify(execFile);

  async function cli(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await run(tsx, [script, ...args], { cwd });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  it('generates keys, issues a licence the gateway accepts, verifies it, and never overwrites keys', async () => {
    const dir = tempDir('edge-license-cli-');
    const keygen = await cli(['keygen', '--out', 'keys'], dir);
    expect(keygen.code, keygen.stderr).toBe(0);
    const privateFile = join(dir, 'keys/license-private.pem');
    const publicFile = join(dir, 'keys/license-public.pem');
    expect(statSync(privateFile).mode & 0o777).toBe(0o600);
    const privateBefore = readFileSync(privateFile, 'utf8');

    const again = await cli(['keygen', '--out', 'keys'], dir);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/already exists/);
    expect(readFileSync(privateFile, 'utf8')).toBe(privateBefore);

    const issued = await cli(
      ['issue', '--private-key', privateFile, '--device', SN, '--days', '30', '--customer', 'ACME', '--max-devices', '20', '--features', 'rules,video', '--out', 'edge.lic'],
      dir,
    );
    expect(issued.code, issued.stderr).toBe(0);

    const verified = await cli(['verify', '--public-key', publicFile, '--lic', 'edge.lic', '--device', SN], dir);
    expect(verified.code, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ device: SN, customer: 'ACME', maxDevices: 20, features: ['rules', 'video'] });

    const otherDevice = await cli(['verify', '--public-key', publicFile, '--lic', 'edge.lic', '--device', 'EC-OTHER'], dir);
    expect(otherDevice.code).toBe(1);
    expect(otherDevice.stdout).toMatch(/another device/);

    // The gateway started with --license-public-key keys/license-public.pem accepts the file.
    const t = await makeApp({ embeddedLicenseKeys: readLicenseKeyFiles([publicFile]) });
    const res = await activate(t, { licFile: readFileSync(join(dir, 'edge.lic')) });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as LicenseInfo).license).toMatchObject({ customer: 'ACME', maxDevices: 20 });
  });

  it('refuses bad arguments with a clear message and a non-zero exit', async () => {
    const dir = tempDir('edge-license-cli-');
    const days = await cli(['issue', '--private-key', 'k.pem', '--device', '*', '--days', 'soon', '--out', 'x.lic'], dir);
    expect(days.code).toBe(2);
    expect(days.stderr).toMatch(/--days/);
    const unknown = await cli(['issue', '--colour', 'red'], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--colour/);
    const command = await cli(['sign'], dir);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/unknown command "sign"/);
    const help = await cli(['--help'], dir);
    expect(help.code).toBe(0);
    for (const word of ['keygen', 'issue', 'verify', '--private-key', '--device', '--days', '--customer', '--max-devices', '--out']) {
      expect(help.stdout).toContain(word);
    }
  });

  it('makes a development key pair only when it is missing', () => {
    const dir = join(tempDir('edge-dev-keys-'), '.keys');
    const first = ensureDevKeys(dir);
    expect(first.created).toBe(true);
    const pem = readFileSync(first.publicKeyFile, 'utf8');
    expect(readLicenseKeyFiles([first.publicKeyFile])).toEqual([pem]);
    const second = ensureDevKeys(dir);
    expect(second.created).toBe(false);
    expect(readFileSync(second.publicKeyFile, 'utf8')).toBe(pem);
    expect(existsSync(second.privateKeyFile)).toBe(true);
  });
});
