import { describe, expect, it } from 'vitest';
import type { LanSettings, WanSettings, WifiSettings } from '../../server/contract/network.ts';
import {
  cellularProblems,
  interfaceProblems,
  ipv4Problem,
  lanProblems,
  macProblem,
  maskPrefix,
  networkProblems,
  wifiProblems,
} from '../../server/contract/rules/network.ts';

const wan: WanSettings = { connectionType: 'IMMOBILIZATION', ipAddress: '10.0.0.5', subnetMask: '255.255.255.0', gateway: '10.0.0.1', dns: ['223.5.5.5'] };
const lan: LanSettings = {
  connectionType: 'IMMOBILIZATION',
  ipAddress: '192.168.1.1',
  subnetMask: '255.255.255.0',
  gateway: '',
  dns: [],
  dhcpServer: { enabled: true, poolStart: '192.168.1.100', poolEnd: '192.168.1.200' },
};
const wifi: WifiSettings = { enabled: true, mode: 'ap', ssid: 'gateway', security: 'wpa2', password: 'longenough' };

const fields = (found: { field: string; key: string }[]): string[] => found.map((p) => `${p.field} ${p.key}`);

describe('network rules', () => {
  it('takes dotted-quad host addresses only', () => {
    for (const ok of ['192.168.1.1', '10.0.0.255', '1.2.3.4']) expect(ipv4Problem(ok), ok).toBeNull();
    for (const bad of ['', '0.0.0.0', '256.1.1.1', '1.2.3', '01.2.3.4', '1.2.3.4 ', '224.0.0.1', '255.255.255.255', 'gateway']) {
      expect(ipv4Problem(bad), bad).toEqual({ key: 'error.network.ipAddress' });
    }
  });

  it('takes contiguous masks of 8 to 32 bits only', () => {
    expect(maskPrefix('255.255.255.0')).toBe(24);
    expect(maskPrefix('255.255.254.0')).toBe(23);
    expect(maskPrefix('255.255.255.255')).toBe(32);
    for (const bad of ['255.0.255.0', '255.255.255.1', '0.0.0.0', '128.0.0.0', '255.255.256.0', '']) expect(maskPrefix(bad), bad).toBeNull();
  });

  it('takes colon-separated MAC addresses of six hex pairs', () => {
    expect(macProblem('00:1A:2b:3C:4D:5E')).toBeNull();
    for (const bad of ['00-1A-2B-3C-4D-5E', '00:1A:2B:3C:4D', '00:1A:2B:3C:4D:5G', '001A2B3C4D5E']) expect(macProblem(bad), bad).toEqual({ key: 'error.network.macAddress' });
  });

  it('accepts a fixed WAN with a gateway in its subnet, and a DHCP WAN with empty addresses', () => {
    expect(interfaceProblems('wan', wan)).toEqual([]);
    expect(interfaceProblems('wan', { connectionType: 'AUTO', ipAddress: '', subnetMask: '', gateway: '', dns: [] })).toEqual([]);
  });

  it('refuses a gateway outside the subnet, equal to the address, or the broadcast address', () => {
    for (const gateway of ['10.0.1.1', '10.0.0.5', '10.0.0.255', 'x']) {
      expect(fields(interfaceProblems('wan', { ...wan, gateway })), gateway).toEqual(['wan.gateway error.network.gateway']);
    }
  });

  it('refuses a network or broadcast address as the interface address, and a broken mask', () => {
    expect(fields(interfaceProblems('wan', { ...wan, ipAddress: '10.0.0.0', gateway: '' }))).toEqual(['wan.ipAddress error.network.ipAddress']);
    expect(fields(interfaceProblems('wan', { ...wan, subnetMask: '255.0.255.0', gateway: '' }))).toEqual(['wan.subnetMask error.network.subnetMask']);
  });

  it('refuses a bad, repeated or fourth DNS server, naming its position', () => {
    expect(fields(interfaceProblems('wan', { ...wan, dns: ['8.8.8.8', 'dns.example'] }))).toEqual(['wan.dns.1 error.network.dns']);
    expect(fields(interfaceProblems('wan', { ...wan, dns: ['8.8.8.8', '8.8.8.8'] }))).toEqual(['wan.dns.1 error.network.dns']);
    expect(fields(interfaceProblems('wan', { ...wan, dns: ['1.1.1.1', '2.2.2.2', '3.3.3.3', '4.4.4.4'] }))).toEqual(['wan.dns error.network.dns']);
  });

  it('keeps the DHCP pool inside the LAN subnet, in order, and off the LAN address', () => {
    expect(lanProblems(lan)).toEqual([]);
    const pool = (poolStart: string, poolEnd: string) => fields(lanProblems({ ...lan, dhcpServer: { enabled: true, poolStart, poolEnd } }));
    expect(pool('192.168.2.100', '192.168.1.200')).toEqual(['lan.dhcpServer.poolStart error.network.poolStart']);
    expect(pool('192.168.1.100', '192.168.2.200')).toEqual(['lan.dhcpServer.poolEnd error.network.poolEnd']);
    expect(pool('192.168.1.200', '192.168.1.100')).toEqual(['lan.dhcpServer.poolEnd error.network.poolEnd']);
    expect(pool('192.168.1.1', '192.168.1.50')).toEqual(['lan.dhcpServer.poolStart error.network.poolHasLanAddress']);
    expect(pool('192.168.1.100', '192.168.1.255')).toEqual(['lan.dhcpServer.poolEnd error.network.poolEnd']);
    // A turned-off DHCP server's pool is not checked.
    expect(lanProblems({ ...lan, dhcpServer: { enabled: false, poolStart: '', poolEnd: '' } })).toEqual([]);
  });

  it('sizes the WiFi password by its security, and needs one for a secured network unless stored', () => {
    expect(wifiProblems(wifi, false)).toEqual([]);
    const pw = (security: WifiSettings['security'], password: string | undefined, stored = false) => fields(wifiProblems({ ...wifi, security, password }, stored));
    expect(pw('wpa2', 'short')).toEqual(['wifi.password error.network.wifiPassword']);
    expect(pw('wpa3', 'x'.repeat(64))).toEqual(['wifi.password error.network.wifiPassword']);
    expect(pw('wpa2', 'ab'.repeat(32))).toEqual([]);
    expect(pw('wep', '12345')).toEqual([]);
    expect(pw('wep', '123456')).toEqual(['wifi.password error.network.wifiPassword']);
    expect(pw('none', 'secret')).toEqual(['wifi.password error.network.wifiPassword']);
    expect(pw('wpa2', undefined)).toEqual(['wifi.password error.network.wifiPassword']);
    expect(pw('wpa2', undefined, true)).toEqual([]);
    expect(fields(wifiProblems({ ...wifi, ssid: '' }, false))).toEqual(['wifi.ssid error.network.ssid']);
    expect(fields(wifiProblems({ ...wifi, ssid: '网'.repeat(11) }, false))).toEqual(['wifi.ssid error.network.ssid']);
  });

  it('checks the APN and the SIM PIN', () => {
    expect(cellularProblems({ enabled: true, apn: 'cmnet', pin: '1234' })).toEqual([]);
    expect(fields(cellularProblems({ enabled: true, apn: 'bad apn', pin: '12' }))).toEqual(['cellular.apn error.network.apn', 'cellular.pin error.network.pin']);
  });

  it('refuses a LAN and a WAN in one subnet, also against the section left as it is', () => {
    const sameAsLan = { ...wan, ipAddress: '192.168.1.9', gateway: '192.168.1.254' };
    expect(fields(networkProblems({ lan, wan: sameAsLan }))).toEqual(['wan.ipAddress error.network.lanWanSubnet']);
    expect(fields(networkProblems({ wan: sameAsLan }, { passwordSet: false, lan }))).toEqual(['wan.ipAddress error.network.lanWanSubnet']);
    expect(networkProblems({ lan, wan })).toEqual([]);
  });
});
