/**
 * Network configuration over HTTP with the openwrt applier, `uci` and `ubus` faked at the process
 * boundary (tests/helpers/openwrt-stub.ts): read from UCI, the batch and the reload, the new URL of
 * a moved LAN address, a failing `uci commit` rolled back with its own error text.
 */
import { describe, expect, it } from 'vitest';
import type { NetworkApplyResult, NetworkState } from '../../server/contract/network.ts';
import { networkRoutes } from '../../server/contract/network.ts';
import { expectError } from '../helpers/error-body.ts';
import { lanSettings, newLan } from '../helpers/network.ts';
import { installOpenWrtStub } from '../helpers/openwrt-stub.ts';
import { authHeader, signIn } from '../helpers/session.ts';
import { makeProvisionedApp } from '../helpers/setup.ts';

/** OpenWrt's defaults with the LAN at 192.168.1.1/24 and a pool of 100–249. */
const openWrtDefaults = {
  'network.lan.proto': 'static',
  'network.lan.ipaddr': '192.168.1.1',
  'network.lan.netmask': '255.255.255.0',
  'network.wan.proto': 'dhcp',
  'dhcp.lan.start': '100',
  'dhcp.lan.limit': '150',
  'wireless.default_radio0.mode': 'ap',
  'wireless.default_radio0.ssid': 'OpenWrt',
  'wireless.default_radio0.encryption': 'none',
};

async function openWrtApp() {
  const stub = installOpenWrtStub(openWrtDefaults);
  const t = await makeProvisionedApp({ networkApplier: 'openwrt' });
  const { token } = await signIn(t.app, t.admin.username, t.admin.password);
  const headers = { ...authHeader(token), host: '192.168.1.1:8080' };
  const call = (route: (typeof networkRoutes)[keyof typeof networkRoutes], payload?: unknown) =>
    t.app.inject({ method: route.method, url: route.url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { ...t, stub, call, state: async () => (await call(networkRoutes.get)).json() as NetworkState };
}

describe('network configuration on OpenWrt (uci and ubus stubbed)', () => {
  it('reads the LAN and its DHCP pool from UCI', async () => {
    const t = await openWrtApp();
    const s = await t.state();
    expect(s.applier).toBe('openwrt');
    expect(lanSettings(s)).toEqual({
      connectionType: 'IMMOBILIZATION', ipAddress: '192.168.1.1', subnetMask: '255.255.255.0', gateway: '', dns: [],
      dhcpServer: { enabled: true, poolStart: '192.168.1.100', poolEnd: '192.168.1.249' },
    });
    expect(s.wifi).toMatchObject({ mode: 'ap', ssid: 'OpenWrt', security: 'none', passwordSet: false });
  });

  it('sets and commits the options, reloads through ubus, and names the new URL of a moved LAN address', async () => {
    const t = await openWrtApp();
    const res = await t.call(networkRoutes.apply, { lan: newLan });
    expect(res.statusCode, res.body).toBe(200);
    const applied = res.json() as NetworkApplyResult;
    expect(applied.newUrl).toBe('http://10.123.45.1:8080');
    const calls = t.stub.calls();
    const batch = t.stub.batches();
    expect(batch).toContain("set network.lan.ipaddr='10.123.45.1'\n");
    expect(batch).toContain("set dhcp.lan.limit='101'\n");
    expect(calls).toContainEqual(['uci', 'commit', 'network']);
    expect(calls).toContainEqual(['ubus', 'call', 'service', 'event', '{"type":"config.change","data":{"package":"network"}}']);
    expect(lanSettings(await t.state())).toEqual(newLan);
    expect((await t.call(networkRoutes.confirm, { applyId: applied.applyId })).statusCode).toBe(200);
  });

  it("rolls back at once when uci fails, answering the command's own error text", async () => {
    const t = await openWrtApp();
    t.stub.failOn('commit');
    const body = expectError(await t.call(networkRoutes.apply, { lan: newLan }), 502, 2, 'error.network.applyFailed');
    expect(body.message).toContain('no space left on device');
    expect(t.stub.calls()).toContainEqual(['uci', 'revert', 'network']);
    expect(t.stub.state().get('network.lan.ipaddr')).toBe('192.168.1.1');
    expect((await t.state()).pending).toBeUndefined();
  });
});
