import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { NetworkSettings } from '../../server/contract/network.ts';
import { parseWifiList, profileArgs } from '../../server/modules/network/networkmanager-applier.ts';
import { splitTerse } from '../../server/modules/network/nm-profile-reader.ts';
import { parseUciShow, settingsFromUci, uciCommands } from '../../server/modules/network/openwrt-applier.ts';
import { settingsDiff } from '../../server/modules/network/settings-diff.ts';

const settings: NetworkSettings = {
  lan: {
    connectionType: 'IMMOBILIZATION', ipAddress: '192.168.8.1', subnetMask: '255.255.255.0', gateway: '', dns: ['223.5.5.5', '8.8.8.8'],
    dhcpServer: { enabled: true, poolStart: '192.168.8.50', poolEnd: '192.168.8.99' },
  },
  wan: { connectionType: 'AUTO', ipAddress: '', subnetMask: '', gateway: '', dns: [] },
  wifi: { enabled: true, mode: 'client', ssid: "Joe's net", security: 'wpa3', password: "it's secret" },
  cellular: { enabled: true, apn: 'cmnet', pin: '1234' },
};

/** What `uci show` would print after the batch: each set line is already in that form. */
function applyBatch(lines: string[]): string {
  const state = new Map<string, string>();
  for (const line of lines) {
    const [op, rest] = [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)];
    const key = rest.slice(0, rest.indexOf('=') < 0 ? undefined : rest.indexOf('='));
    if (op === 'delete') state.delete(key);
    else if (op === 'set') state.set(key, rest.slice(key.length + 1));
    else if (op === 'add_list') state.set(key, [state.get(key), rest.slice(key.length + 1)].filter(Boolean).join(' '));
  }
  return [...state].map(([k, v]) => `${k}=${v}`).join('\n');
}

describe('openwrt applier plan', () => {
  it('writes UCI options that read back as the same settings, quotes included', () => {
    const lines = uciCommands(settings);
    expect(lines).toContain("set network.lan.proto='static'");
    expect(lines).toContain("set dhcp.lan.start='50'");
    expect(lines).toContain("set dhcp.lan.limit='50'");
    expect(lines).toContain("set wireless.default_radio0.encryption='sae'");
    expect(lines).toContain("set network.wan.proto='dhcp'");
    expect(lines).toContain('delete network.wan.ipaddr');
    expect(settingsDiff(settings, settingsFromUci(parseUciShow(applyBatch(lines))))).toEqual([]);
  });

  it('drops a stored WiFi key for an open network', () => {
    const open = { ...settings, wifi: { enabled: true, mode: 'ap' as const, ssid: 'guest', security: 'none' as const } };
    expect(uciCommands(open)).toContain('delete wireless.default_radio0.key');
  });
});

describe('plan diff', () => {
  it('lists changed settings by path and masks secrets', () => {
    const next = { ...settings, lan: { ...settings.lan, dns: ['1.1.1.1'] }, wifi: { ...settings.wifi, password: 'another one' } };
    expect(settingsDiff(settings, next)).toEqual([
      { path: 'lan.dns', from: ['223.5.5.5', '8.8.8.8'], to: ['1.1.1.1'] },
      { path: 'wifi.password', from: '******', to: '******' },
    ]);
  });
});

describe('networkmanager applier plan', () => {
  // The real nmcli writes the keyfile each profile would be, without a running NetworkManager.
  const keyfile = (args: string[]): string => execFileSync('nmcli', ['--offline', 'connection', 'add', ...args], { encoding: 'utf8', timeout: 60_000 });
  const profiles = profileArgs(settings, { lan: 'eth1', wan: 'eth0', wifi: 'wlan0' });

  it('makes profiles nmcli accepts: a shared LAN with its address, a DHCP WAN, a WPA3 client, a 4G APN', () => {
    const lan = keyfile(profiles.lan);
    expect(lan).toContain('interface-name=eth1');
    expect(lan).toContain('address1=192.168.8.1/24');
    expect(lan).toContain('method=shared');
    const wan = keyfile(profileArgs({ ...settings, wan: { ...settings.wan, dns: ['1.1.1.1'] } }, { lan: 'eth1', wan: 'eth0', wifi: '' }).wan);
    expect(wan).toMatch(/\[ipv4\][^[]*method=auto/);
    expect(wan).toContain('dns=1.1.1.1;');
    expect(wan).toContain('ignore-auto-dns=true');
    const wifi = keyfile(profiles.wifi);
    expect(wifi).toContain("ssid=Joe's net");
    expect(wifi).toContain('key-mgmt=sae');
    expect(wifi).toContain('mode=infrastructure');
    const gsm = keyfile(profiles.cellular);
    expect(gsm).toContain('apn=cmnet');
  }, 120_000);
});

describe('networkmanager WiFi scan', () => {
  it("splits nmcli's terse fields, where a ':' in a value is '\\:' and a backslash '\\\\'", () => {
    expect(splitTerse(String.raw`Cafe\: Guest:54:WPA2`)).toEqual(['Cafe: Guest', '54', 'WPA2']);
    expect(splitTerse(String.raw`C:\\temp:40:`)).toEqual(['C', '\\temp', '40', '']);
    expect(splitTerse(String.raw`back\\:40:`)).toEqual(['back\\', '40', '']);
  });

  it('lists each SSID once at its strongest, strongest first, without hidden networks, with the security the console offers', () => {
    const out = [
      'Office:60:WPA1 WPA2 802.1X',
      String.raw`Cafe\: Guest:54:`,
      ':71:WPA2',
      'Home-5G:88:WPA2 WPA3',
      'Lab:47:WPA3',
      'Office:75:WPA2',
      'Old:20:WEP',
      '',
    ].join('\n');
    expect(parseWifiList(out)).toEqual([
      { ssid: 'Home-5G', signal: 88, security: 'wpa2' },
      { ssid: 'Office', signal: 75, security: 'wpa2' },
      { ssid: 'Cafe: Guest', signal: 54, security: 'none' },
      { ssid: 'Lab', signal: 47, security: 'wpa3' },
      { ssid: 'Old', signal: 20, security: 'wep' },
    ]);
  });
});
