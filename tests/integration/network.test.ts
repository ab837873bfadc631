/**
 * Network configuration over HTTP in `file` mode (server/modules/network/): the settings read from
 * the machine, the plan, the safe apply (confirm, automatic rollback, rollback after a kill -9
 * inside the window), and the refusals of spec §5 naming their field in both languages.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LanSettings, NetworkApplyResult, NetworkPlan, NetworkState } from '../../server/contract/network.ts';
import { networkRoutes } from '../../server/contract/network.ts';
import { makeApp, tempDir } from '../helpers/app.ts';
import { expectError } from '../helpers/error-body.ts';
import { testLicenseKeys } from '../helpers/license.ts';
import { eventually } from '../helpers/mqtt.ts';
import { authHeader, signIn } from '../helpers/session.ts';
import { lanSettings, newLan } from '../helpers/network.ts';
import { makeProvisionedApp } from '../helpers/setup.ts';
import { runStorageChild } from '../helpers/storage-child.ts';

async function signedIn() {
  const t = await makeProvisionedApp();
  const { token } = await signIn(t.app, t.admin.username, t.admin.password);
  const headers = authHeader(token);
  const call = (route: (typeof networkRoutes)[keyof typeof networkRoutes], payload?: unknown, lang = 'en-US') =>
    t.app.inject({ method: route.method, url: route.url, headers: { ...headers, 'accept-language': lang }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const state = async () => (await call(networkRoutes.get)).json() as NetworkState;
  const desiredPath = join(t.dataDir, 'network', 'desired.json');
  return { ...t, call, state, desiredPath };
}

describe('network configuration', () => {
  it('reads the WAN from the machine: the interface of the default route, its MAC, and nothing pending', async () => {
    const t = await signedIn();
    const s = await t.state();
    expect(s.applier).toBe('file');
    expect(s.pending).toBeUndefined();
    const route = readFileSync('/proc/net/route', 'utf8').split('\n').slice(1).map((l) => l.trim().split(/\s+/)).find((f) => f[1] === '00000000');
    if (route) {
      expect(s.wan.interfaceName).toBe(route[0]);
      expect(s.wan.macAddress).toBe(readFileSync(`/sys/class/net/${route[0]}/address`, 'utf8').trim().toUpperCase());
      expect(s.wan.ipAddress).not.toBe('');
    }
    expect(s.wifi).not.toHaveProperty('password');
  });

  it('plans a LAN change field by field and touches nothing', async () => {
    const t = await signedIn();
    const before = await t.state();
    const res = await t.call(networkRoutes.plan, { lan: newLan });
    expect(res.statusCode, res.body).toBe(200);
    const { changes } = res.json() as NetworkPlan;
    expect(changes).toContainEqual({ path: 'lan.ipAddress', from: before.lan.ipAddress, to: '10.123.45.1' });
    expect(changes).toContainEqual({ path: 'lan.dhcpServer.poolEnd', from: before.lan.dhcpServer.poolEnd, to: '10.123.45.200' });
    expect(existsSync(t.desiredPath)).toBe(false);
  });

  it('refuses a gateway outside the subnet and a DHCP pool beyond it, naming each field in both languages', async () => {
    const t = await signedIn();
    const bad = { lan: { ...newLan, gateway: '10.9.9.9', dhcpServer: { enabled: true, poolStart: '10.123.45.100', poolEnd: '10.123.46.20' } } };
    const en = expectError(await t.call(networkRoutes.apply, bad), 400, 31, 'error.network.gateway');
    expect(en.details?.map((d) => d.field)).toEqual(['body.lan.gateway', 'body.lan.dhcpServer.poolEnd']);
    expect(en.message).toMatch(/gateway/i);
    const zh = expectError(await t.call(networkRoutes.plan, bad, 'zh-CN'), 400, 31, 'error.network.gateway');
    expect(zh.message).toContain('网关');
    expect(expectError(await t.call(networkRoutes.plan, { lan: { ...newLan, subnetMask: '255.0.255.0' } }, 'zh-CN'), 400, 31, 'error.network.subnetMask').message).toContain('子网掩码');
    expectError(await t.call(networkRoutes.plan, { wifi: { enabled: true, mode: 'ap', ssid: 'edge', security: 'wpa2', password: 'short' } }), 400, 31, 'error.network.wifiPassword');
    expectError(await t.call(networkRoutes.apply, { lan: newLan, confirmWithinS: 5 }), 400, 31, 'error.validation');
    expect(existsSync(t.desiredPath)).toBe(false);
  });

  it('applies, shows the change as pending, keeps it once confirmed, and refuses a second confirmation', async () => {
    const t = await signedIn();
    const res = await t.call(networkRoutes.apply, { lan: newLan, wifi: { enabled: true, mode: 'ap', ssid: 'edge-ap', security: 'wpa2', password: 'correct horse' } });
    expect(res.statusCode, res.body).toBe(200);
    const applied = res.json() as NetworkApplyResult;
    // file mode moves no address, so there is no new URL to go to.
    expect(applied.newUrl).toBeUndefined();
    const window = Date.parse(applied.confirmBy) - Date.now();
    expect(window).toBeGreaterThan(60_000);
    expect(window).toBeLessThanOrEqual(90_000);

    const pending = await t.state();
    expect(pending.pending).toEqual({ applyId: applied.applyId, confirmBy: applied.confirmBy });
    expect(lanSettings(pending)).toEqual(newLan);
    expect(pending.wifi).toMatchObject({ ssid: 'edge-ap', passwordSet: true });
    expect(JSON.stringify(pending)).not.toContain('correct horse');
    expectError(await t.call(networkRoutes.apply, { lan: { ...newLan, ipAddress: '10.123.45.2' } }), 409, 35, 'error.network.applyPending');

    // The applyId is the credential: the confirmation comes without a session (from the new address after a LAN change).
    const confirmed = await t.app.inject({ method: 'POST', url: networkRoutes.confirm.url, payload: { applyId: applied.applyId } });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const kept = await t.state();
    expect(kept.pending).toBeUndefined();
    expect(lanSettings(kept)).toEqual(newLan);
    expect((JSON.parse(readFileSync(t.desiredPath, 'utf8')) as { lan: LanSettings }).lan).toEqual(newLan);
    expectError(await t.call(networkRoutes.confirm, { applyId: applied.applyId }), 400, 31, 'error.network.applyUnknown');
    expectError(await t.call(networkRoutes.apply, { lan: newLan }), 400, 31, 'error.network.noChange');
  });

  it('masks the WiFi password in a plan and keeps a stored one when none is sent', async () => {
    const t = await signedIn();
    const wifi = { enabled: true, mode: 'client', ssid: 'site-wifi', security: 'wpa2' };
    const applied = (await t.call(networkRoutes.apply, { wifi: { ...wifi, password: 'first secret' } })).json() as NetworkApplyResult;
    await t.call(networkRoutes.confirm, { applyId: applied.applyId });
    const plan = (await t.call(networkRoutes.plan, { wifi: { ...wifi, password: 'second secret' } })).json() as NetworkPlan;
    expect(plan.changes).toEqual([{ path: 'wifi.password', from: '******', to: '******' }]);
    expect((await t.call(networkRoutes.plan, { wifi: { ...wifi, ssid: 'other' } })).json()).toEqual({ changes: [{ path: 'wifi.ssid', from: 'site-wifi', to: 'other' }] });
  });

  it('puts the previous settings back by itself when no confirmation comes in time', async () => {
    const t = await signedIn();
    const before = await t.state();
    const res = await t.call(networkRoutes.apply, { lan: newLan, confirmWithinS: 10 });
    expect(res.statusCode, res.body).toBe(200);
    const { applyId } = res.json() as NetworkApplyResult;
    expect(lanSettings(await t.state())).toEqual(newLan);
    const after = await eventually(() => t.state(), (s) => s.pending === undefined, 40_000);
    expect(lanSettings(after)).toEqual(lanSettings(before));
    expectError(await t.call(networkRoutes.confirm, { applyId }), 400, 31, 'error.network.applyUnknown');
  }, 60_000);

  it('comes back with the previous settings after a kill -9 inside the confirmation window', async () => {
    const t = await signedIn();
    const before = await t.state();
    await t.app.close();
    const keyFile = join(tempDir('edge-key-'), 'license-public.pem');
    writeFileSync(keyFile, testLicenseKeys().publicKeyPem);
    const lines = await runStorageChild(
      'network-apply-child.ts',
      [t.dataDir, keyFile, t.admin.username, t.admin.password, JSON.stringify({ lan: newLan, confirmWithinS: 600 })],
      'applied',
    );
    expect(lines).toEqual(['applied']);
    expect((JSON.parse(readFileSync(t.desiredPath, 'utf8')) as { lan: LanSettings }).lan).toEqual(newLan);

    const again = await makeApp({ dataDir: t.dataDir, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem] });
    const { token } = await signIn(again.app, t.admin.username, t.admin.password);
    const s = (await again.app.inject({ url: networkRoutes.get.url, headers: authHeader(token) })).json() as NetworkState;
    expect(s.pending).toBeUndefined();
    expect(lanSettings(s)).toEqual(lanSettings(before));
    expect(existsSync(join(t.dataDir, 'network', 'pending.json'))).toBe(false);
  }, 90_000);

  it('answers an empty WiFi scan in file mode, which talks to no radio', async () => {
    const t = await signedIn();
    const res = await t.call(networkRoutes.wifiScan);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([]);
  });
});
