/**
 * The networkmanager applier against a real NetworkManager (Debian's network-manager) in a network
 * namespace with a private D-Bus (tests/helpers/nm-namespace.ts), driven through the gateway's HTTP
 * API: the gateway runs inside the namespace, the test reaches it over a unix socket and reads the
 * LAN veth's address with `ip -n`. NetworkManager's checkpoint rolls an unconfirmed change back by
 * itself when the gateway dies; a confirmed one is kept. The host's own network is never touched:
 * every test checks that the gateway runs in the namespace and that the veth is not on the host.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkRoutes, type NetworkApplyResult, type NetworkState } from '../../server/contract/network.ts';
import { testLicenseKeys } from '../helpers/license.ts';
import { eventually } from '../helpers/mqtt.ts';
import { newLan } from '../helpers/network.ts';
import { SIM, makeMmcliStub, type MmcliStub } from '../helpers/mmcli-stub.ts';
import { NS_LAN, startNmNamespace, type NmNamespace } from '../helpers/nm-namespace.ts';
import { makeProvisionedApp } from '../helpers/setup.ts';
import { startSocketGateway, type SocketGateway } from '../helpers/socket-gateway.ts';

/** The LAN as the namespace starts: a profile of the machine's own, not one of the gateway's. */
const BEFORE = '192.168.7.1/24';
const AFTER = `${newLan.ipAddress}/24`;
/** What a browser on the LAN sends, so the apply names the new URL. */
const host = { host: '192.168.7.1:8080' };

let ns: NmNamespace;
/** One provisioned data dir for the file (provisioning and a gateway start are what take time here). */
let dataDir: string;
let keyFile: string;
let admin: { username: string; password: string };
let gw: SocketGateway;
let auth: Record<string, string>;
/** ModemManager faked for the gateway (a modem whose SIM waits for PIN 1234): no modem exists in the namespace. */
let mmcli: MmcliStub;

/** Starts the gateway inside the namespace with the networkmanager applier, signed in. */
async function startGateway(): Promise<void> {
  gw = await startSocketGateway(ns, { dataDir, keyFile, applier: 'networkmanager', pathPrefix: mmcli.dir });
  // Never the host's network: the gateway runs in the namespace, and the veth is not the host's.
  expect(await ns.namespaceOf(gw.pid)).toBe(ns.name);
  expect(existsSync(`/sys/class/net/${NS_LAN}`)).toBe(false);
  const login = await gw.call({ method: 'POST', url: '/api/auth/login' }, admin);
  expect(login.statusCode, login.body).toBe(200);
  auth = { ...host, authorization: `Bearer ${(login.json() as { token: string }).token}` };
}

beforeAll(async () => {
  ns = await startNmNamespace();
  await ns.nmcli('connection', 'add', 'type', 'ethernet', 'con-name', 'lan-before', 'ifname', NS_LAN, 'ipv4.method', 'manual', 'ipv4.addresses', BEFORE, 'ipv6.method', 'disabled');
  await ns.nmcli('connection', 'up', 'lan-before');
  // The data dir lives in the namespace's directory, removed with it (a test's temporary dirs go after each test).
  dataDir = mkdtempSync(join(ns.dir, 'data-'));
  keyFile = join(ns.dir, 'license-public.pem');
  writeFileSync(keyFile, testLicenseKeys().publicKeyPem);
  mmcli = makeMmcliStub({ pin: '1234', onPath: false, dir: mkdtempSync(join(ns.dir, 'mmcli-')) });
  const t = await makeProvisionedApp({ dataDir });
  admin = t.admin;
  await t.app.close();
  await startGateway();
}, 120_000);
afterAll(async () => {
  await gw?.kill9();
  ns?.stop();
});

/** Puts the namespace's LAN back as it started (the profile of the machine's own up again). */
async function resetLan(): Promise<void> {
  await ns.nmcli('connection', 'delete', 'edge-lan').catch(() => undefined);
  await ns.nmcli('connection', 'up', 'lan-before');
  await eventually(() => ns.lanAddresses(), (a) => a.join() === BEFORE, 30_000);
}

/** Applies the new LAN over HTTP and sees it on the veth. */
async function applyNewLan(confirmWithinS: number): Promise<NetworkApplyResult> {
  const res = await gw.call(networkRoutes.apply, { lan: newLan, confirmWithinS }, auth);
  expect(res.statusCode, res.body).toBe(200);
  expect(await ns.lanAddresses()).toEqual([AFTER]);
  return res.json() as NetworkApplyResult;
}

describe('network configuration with a real NetworkManager in a namespace', () => {
  it('reads the LAN veth, applies a new LAN address under a checkpoint, and keeps it once confirmed', async () => {
    const state = (await gw.call(networkRoutes.get, undefined, auth)).json() as NetworkState;
    expect(state).toMatchObject({ applier: 'networkmanager', lan: { interfaceName: NS_LAN, ipAddress: '192.168.7.1', subnetMask: '255.255.255.0' } });

    const applied = await applyNewLan(60);
    expect(applied.newUrl).toBe(`http://${newLan.ipAddress}:8080`);
    expect(await ns.checkpoints()).toHaveLength(1);
    expect(await ns.nmcli('-g', 'ipv4.method', 'connection', 'show', 'edge-lan')).toBe('shared\n');
    // Read back from the profile: a fixed address serving DHCP (the machine's addresses alone cannot tell).
    const held = (await gw.call(networkRoutes.get, undefined, auth)).json() as NetworkState;
    expect(held.lan).toMatchObject({ connectionType: 'IMMOBILIZATION', ipAddress: newLan.ipAddress, subnetMask: '255.255.255.0', dhcpServer: { enabled: true } });

    const confirmed = await gw.call(networkRoutes.confirm, { applyId: applied.applyId });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // No checkpoint left: nothing can roll the change back any more.
    expect(await ns.checkpoints()).toEqual([]);
    expect(await ns.lanAddresses()).toEqual([AFTER]);
    await resetLan();
  }, 90_000);

  it('reads the WiFi and 4G settings back from the profiles NetworkManager holds, secrets as set or not', async () => {
    // Added straight to NetworkManager, as an earlier apply (or an administrator) left them: there is no radio or modem to bring them up.
    await ns.nmcli('connection', 'add', 'type', 'wifi', 'con-name', 'edge-wifi', 'ifname', '*', 'ssid', 'Cafe: Guest\\', '802-11-wireless.mode', 'ap', 'wifi-sec.key-mgmt', 'sae', 'wifi-sec.psk', 'secret-123', 'connection.autoconnect', 'yes');
    await ns.nmcli('connection', 'add', 'type', 'gsm', 'con-name', 'edge-cellular', 'ifname', '*', 'gsm.apn', 'cmiot', 'gsm.pin', '4321', 'connection.autoconnect', 'no');
    try {
      const state = (await gw.call(networkRoutes.get, undefined, auth)).json() as NetworkState;
      expect(state.wifi).toMatchObject({ enabled: true, mode: 'ap', ssid: 'Cafe: Guest\\', security: 'wpa3', passwordSet: true });
      expect(state.cellular).toMatchObject({ enabled: false, apn: 'cmiot', pinSet: true });
      // The WAN has no profile of the gateway's: still the machine's reading.
      expect(state.wan.connectionType).toBe('AUTO');
    } finally {
      await ns.nmcli('connection', 'delete', 'edge-wifi', 'edge-cellular');
    }
  }, 60_000);

  it('is rolled back by NetworkManager itself when the gateway dies before the confirmation, and the next start agrees', async () => {
    await applyNewLan(10);
    await gw.kill9();

    // The checkpoint's own timeout (the window plus a grace) runs out inside NetworkManager.
    await eventually(() => ns.lanAddresses(), (a) => a.join() === BEFORE, 90_000);
    expect(await ns.checkpoints()).toEqual([]);
    expect(await ns.nmcli('-g', 'NAME', 'connection', 'show', '--active')).toBe('lan-before\n');

    await startGateway();
    const state = (await gw.call(networkRoutes.get, undefined, auth)).json() as NetworkState;
    expect(state.pending).toBeUndefined();
    expect(state.lan.ipAddress).toBe('192.168.7.1');
    expect(await ns.lanAddresses()).toEqual([BEFORE]);
    await resetLan();
  }, 150_000);

  it("rolls back through the checkpoint on the gateway's own timer when nobody confirms", async () => {
    const { applyId } = await applyNewLan(10);

    await eventually(async () => ((await gw.call(networkRoutes.get, undefined, auth)).json() as NetworkState).pending, (p) => p === undefined, 60_000);
    expect(await ns.lanAddresses()).toEqual([BEFORE]);
    expect(await ns.checkpoints()).toEqual([]);
    // The rollback removed the profile the apply added rather than leaving it beside the old one.
    expect(await ns.nmcli('-g', 'NAME', 'connection', 'show')).toBe('lan-before\n');
    const late = await gw.call(networkRoutes.confirm, { applyId });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ key: 'error.network.applyUnknown' });
  }, 90_000);

  it("unlocks the SIM with its PIN and adds the gsm profile; with no modem device the profile cannot come up, so the apply answers nmcli's error and rolls back", async () => {
    const res = await gw.call(networkRoutes.apply, { cellular: { enabled: true, apn: 'cmnet', pin: '1234' }, confirmWithinS: 30 }, auth);
    expect(res.statusCode, res.body).toBe(502);
    expect(res.json()).toMatchObject({ key: 'error.network.applyFailed' });
    // NetworkManager's own words: without a modem nothing can carry a gsm profile.
    expect((res.json() as { message: string }).message).toContain('No suitable device found for this connection');
    expect(mmcli.calls()).toContainEqual(['mmcli', '-i', SIM, '--pin=1234']);
    // The checkpoint took the profiles the apply added with it, and the LAN is as it was.
    expect(await ns.nmcli('-g', 'NAME', 'connection', 'show')).toBe('lan-before\n');
    expect(await ns.lanAddresses()).toEqual([BEFORE]);
    expect(((await gw.call(networkRoutes.get, undefined, auth)).json() as NetworkState).pending).toBeUndefined();
  }, 90_000);
});
