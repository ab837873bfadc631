/**
 * The gateway itself (server/contract/system.ts): basic info read from the machine, the clock
 * through the `file` time applier, and the factory reset, refused without the caller's password
 * and the typed confirmation, and carried out by the real process restarting in-process.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { auditLogRoutes } from '../../server/contract/audit-log.ts';
import { licenseRoutes, SETUP_CODE_HEADER, type SetupState } from '../../server/contract/license.ts';
import { systemRoutes, type SystemInfo } from '../../server/contract/system.ts';
import type { AuditLog } from '../../server/contract/audit-log.ts';
import { makeApp, tempDir } from '../helpers/app.ts';
import { startBinary, type RunningBinary } from '../helpers/binary.ts';
import { ContractClient } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';
import { testLicenseKeys } from '../helpers/license.ts';
import { createRoleUser } from '../helpers/roles.ts';
import { signIn } from '../helpers/session.ts';
import { makeProvisionedApp, setupCodeOf } from '../helpers/setup.ts';
import { sourceServer } from '../helpers/source-server.ts';

async function signedInAdmin() {
  const t = await makeProvisionedApp();
  const { token } = await signIn(t.app, t.admin.username, t.admin.password);
  return { ...t, api: new ContractClient(t.app, token) };
}

describe('basic info', () => {
  it('reads the serial number, version, clock, CPU, memory, disk and data-dir usage from the machine', async () => {
    const t = await signedInAdmin();
    const res = await t.api.call(systemRoutes.info);
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json() as SystemInfo;
    expect(info).toMatchObject({ deviceSn: 'TEST-SN-0001', version: '0.0.0-test', commit: null, applier: 'file' });
    expect(info.uptimeS).toBeGreaterThan(0);
    expect(Math.abs(info.systemTime - Date.now())).toBeLessThan(60_000);
    expect(info.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(info.ntp).toEqual({ enabled: true, servers: [], synced: null });
    expect(info.cpu.cores).toBe(cpus().length);
    expect(info.memory.total).toBe(totalmem());
    expect(info.disk.total).toBeGreaterThan(0);
    expect(info.dataDir.path).toBe(t.dataDir);
    // The database file alone is several pages.
    expect(info.dataDir.bytes).toBeGreaterThan(4096);
    expect(info.written).toMatchObject({ sinceStart: true, messages: 0 });
  });

  it('is refused to a tenant administrator', async () => {
    const t = await signedInAdmin();
    const tenant = await createRoleUser(t.api, 'TENANT_ADMIN');
    expectError(await new ContractClient(t.app, tenant.token).call(systemRoutes.info), 403, 20, 'error.permissionDenied');
  });
});

describe('time settings in file mode', () => {
  it('records the time zone and NTP servers in <data-dir>/network/time.json and shows them back, touching nothing else', async () => {
    const t = await signedInAdmin();
    const body = { timeZone: 'Asia/Shanghai', ntpEnabled: true, ntpServers: ['ntp.aliyun.com', '10.0.0.1', 'ntp.aliyun.com'] };
    const res = await t.api.call(systemRoutes.time, { body });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ timeZone: 'Asia/Shanghai', ntp: { enabled: true, servers: ['ntp.aliyun.com', '10.0.0.1'], synced: null } });
    const recorded = JSON.parse(readFileSync(join(t.dataDir, 'network', 'time.json'), 'utf8')) as Record<string, unknown>;
    expect(recorded).toEqual({ timeZone: 'Asia/Shanghai', ntpEnabled: true, ntpServers: ['ntp.aliyun.com', '10.0.0.1'] });
    const info = (await t.api.call(systemRoutes.info)).json() as SystemInfo;
    expect(info).toMatchObject({ timeZone: 'Asia/Shanghai', ntp: { enabled: true, servers: ['ntp.aliyun.com', '10.0.0.1'] } });
  });

  it('records a time set by hand while NTP is off', async () => {
    const t = await signedInAdmin();
    const time = Date.UTC(2030, 0, 1);
    const res = await t.api.call(systemRoutes.time, { body: { timeZone: 'UTC', ntpEnabled: false, ntpServers: [], time } });
    expect(res.statusCode, res.body).toBe(200);
    const recorded = JSON.parse(readFileSync(join(t.dataDir, 'network', 'time.json'), 'utf8')) as { manualTime: { requested: number } };
    expect(recorded.manualTime.requested).toBe(time);
  });

  it.each([
    ['an unknown time zone', { timeZone: 'Mars/Olympus', ntpEnabled: true, ntpServers: [] }, 'body.timeZone', 'error.system.timeZone', /时区/, /Time zone/],
    ['an NTP server that is no host name', { timeZone: 'UTC', ntpEnabled: true, ntpServers: ['bad host!'] }, 'body.ntpServers.0', 'error.system.ntpServer', /NTP 服务器/, /NTP server/],
    ['a time set by hand while NTP is on', { timeZone: 'UTC', ntpEnabled: true, ntpServers: [], time: Date.UTC(2030, 0, 1) }, 'body.time', 'error.system.timeWithNtp', /时间/, /Time/],
  ])('refuses %s with 400 naming the field in both languages', async (_what, body, field, key, zh, en) => {
    const t = await signedInAdmin();
    for (const [lang, text] of [['zh-CN', zh], ['en-US', en]] as const) {
      const refused = expectError(await t.api.call(systemRoutes.time, { body, lang }), 400, 31, key);
      expect(refused.details?.map((d) => d.field)).toEqual([field]);
      expect(refused.message).toMatch(text);
    }
    expect(existsSync(join(t.dataDir, 'network', 'time.json'))).toBe(false);
  });
});

describe('factory reset refusals', () => {
  it('refuses a wrong password, a missing or wrong confirmation, and leaves the gateway as it was', async () => {
    const t = await signedInAdmin();
    const wrongPassword = expectError(await t.api.call(systemRoutes.reset, { body: { password: 'Not#TheOne1', confirm: 'RESET', keepLicense: true }, lang: 'en-US' }), 400, 31, 'error.system.password');
    expect(wrongPassword.details?.map((d) => d.field)).toEqual(['body.password']);
    const wrongWord = expectError(await t.api.call(systemRoutes.reset, { body: { password: t.admin.password, confirm: 'reset', keepLicense: true } }), 400, 31, 'error.system.confirm');
    expect(wrongWord.details?.map((d) => d.field)).toEqual(['body.confirm']);
    const missing = await t.api.call(systemRoutes.reset, { body: { password: t.admin.password, keepLicense: true } as never, lang: 'en-US' });
    expect(missing.statusCode, missing.body).toBe(400);
    expect((missing.json() as { details: { field: string }[] }).details.map((d) => d.field)).toEqual(['body.confirm']);
    expect(existsSync(join(t.dataDir, 'factory-reset.json'))).toBe(false);
    expect((await t.api.call(systemRoutes.info)).statusCode).toBe(200);
  });

  it('refuses a tenant administrator and a customer even with their own password', async () => {
    const t = await signedInAdmin();
    for (const role of ['TENANT_ADMIN', 'CUSTOMER_USER'] as const) {
      const user = await createRoleUser(t.api, role);
      const res = await new ContractClient(t.app, user.token).call(systemRoutes.reset, { body: { password: 'Role#Pass2024', confirm: 'RESET', keepLicense: false } });
      expectError(res, 403, 20, 'error.permissionDenied');
    }
    expect(existsSync(join(t.dataDir, 'factory-reset.json'))).toBe(false);
  });
});

describe('factory reset', () => {
  const running: RunningBinary[] = [];
  afterEach(async () => {
    while (running.length) await running.pop()!.kill();
  });

  async function json<T>(url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: T }> {
    const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
    return { status: res.status, body: (await res.json()) as T };
  }

  it('wipes the gateway back to first boot with a new setup code, keeping the licence when asked, and audits who did it', { timeout: 180_000 }, async () => {
    const dir = tempDir('edge-reset-');
    const dataDir = join(dir, 'data');
    // Provisioned in-process, then served by the real process, which must restart on its own.
    const t = await makeProvisionedApp({ dataDir });
    const oldCode = setupCodeOf(t);
    mkdirSync(join(dataDir, 'oss'), { recursive: true });
    writeFileSync(join(dataDir, 'oss', 'upload.bin'), 'x');
    await t.app.close();
    const keyFile = join(dir, 'licence.pem');
    writeFileSync(keyFile, testLicenseKeys().publicKeyPem);
    const server = await startBinary({ binary: sourceServer(dir), dataDir, timeoutMs: 90_000, args: ['--license-public-key', keyFile, '--device-sn', 'TEST-SN-0001'] });
    running.push(server);

    const login = await json<{ token: string }>(`${server.url}/api/auth/login`, { method: 'POST', body: JSON.stringify(t.admin) });
    expect(login.status).toBe(200);
    const reset = await json<unknown>(`${server.url}${systemRoutes.reset.url}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${login.body.token}` },
      body: JSON.stringify({ password: t.admin.password, confirm: 'RESET', keepLicense: true }),
    });
    expect(reset).toEqual({ status: 202, body: { accepted: true } });

    // What the console's wait screen polls: unreachable while restarting, then first boot.
    let state: SetupState | null = null;
    for (const deadline = Date.now() + 90_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      const polled = await json<SetupState>(`${server.url}${licenseRoutes.setupState.url}`).catch(() => null);
      if (polled?.status === 200 && !polled.body.adminCreated) {
        state = polled.body;
        break;
      }
    }
    expect(state).toMatchObject({ adminCreated: false, licensed: true, licenseExpired: false, cloudConfigured: false });
    const newCode = readFileSync(join(dataDir, 'setup-code'), 'utf8').trim();
    expect(newCode).not.toBe(oldCode);
    expect(existsSync(join(dataDir, 'oss'))).toBe(false);
    expect(existsSync(join(dataDir, 'factory-reset.json'))).toBe(false);

    // The old administrator is gone; the old setup code no longer provisions, the new one does.
    expect((await json(`${server.url}/api/auth/login`, { method: 'POST', body: JSON.stringify(t.admin) })).status).toBe(401);
    const admin = { username: 'owner2', password: 'Edge@Console2' };
    const withOld = await json(`${server.url}${licenseRoutes.setupAdmin.url}`, { method: 'POST', headers: { [SETUP_CODE_HEADER]: oldCode }, body: JSON.stringify(admin) });
    expect(withOld.status).toBe(401);
    const created = await json(`${server.url}${licenseRoutes.setupAdmin.url}`, { method: 'POST', headers: { [SETUP_CODE_HEADER]: newCode }, body: JSON.stringify(admin) });
    expect(created.status).toBe(200);
    const again = await json<{ token: string }>(`${server.url}/api/auth/login`, { method: 'POST', body: JSON.stringify(admin) });
    const audit = await json<{ items: AuditLog[] }>(`${server.url}${auditLogRoutes.list.url}?action=system%2Freset`, { headers: { authorization: `Bearer ${again.body.token}` } });
    expect(audit.body.items).toEqual([expect.objectContaining({ username: t.admin.username, action: 'POST /api/yt/system/reset', statusCode: 202, sourceAddress: '127.0.0.1' })]);
  });

  it('finishes a recorded reset at the next start when the process stopped before carrying it out', async () => {
    const t = await signedInAdmin();
    const oldCode = setupCodeOf(t);
    const res = await t.api.call(systemRoutes.reset, { body: { password: t.admin.password, confirm: 'RESET', keepLicense: false } });
    expect(res.statusCode, res.body).toBe(202);
    // makeApp's app has no in-process restart: it only closes, as a process killed now would stop.
    await t.app.close();
    const next = await makeApp({ dataDir: t.dataDir, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem] });
    const state = (await next.app.inject({ method: 'GET', url: licenseRoutes.setupState.url })).json() as SetupState;
    expect(state).toMatchObject({ adminCreated: false, licensed: false });
    expect(setupCodeOf(next)).not.toBe(oldCode);
  });
});
