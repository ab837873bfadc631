/**
 * Reads the gateway's own NetworkManager profiles (`edge-lan`, `edge-wan`, `edge-wifi`,
 * `edge-cellular`) back as console settings, so that `GET /api/yt/network` shows what
 * NetworkManager holds (DHCP or fixed, the WiFi mode and SSID, the APN) rather than guesses from
 * the machine's addresses, and a rollback without a checkpoint restores what was really there.
 */
import type { CellularSettings, LanSettings, NetworkSettings, WanSettings, WifiSettings } from '../../contract/network.ts';
import { formatIpv4 } from '../../contract/rules/network.ts';
import { run } from './openwrt-applier.ts';

export const profileNames = { lan: 'edge-lan', wan: 'edge-wan', wifi: 'edge-wifi', cellular: 'edge-cellular' } as const;

/** A profile's properties by their nmcli names (`ipv4.method` → `manual`), secrets included. */
export type NmProfile = Map<string, string>;

/**
 * One line of `nmcli -t` (terse) output split into its fields: nmcli writes a ':' inside a value
 * as '\\:' and a backslash as '\\\\' (nmcli(1), "--terse"), so an SSID may hold either.
 */
export function splitTerse(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\' && i + 1 < line.length) field += line[++i];
    else if (c === ':') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

/** `nmcli -t -s connection show <name>`: one `property:value` a line. */
export function parseProfile(out: string): NmProfile {
  const profile: NmProfile = new Map();
  for (const line of out.split('\n')) {
    if (!line) continue;
    const [name = '', ...value] = splitTerse(line);
    const text = value.join(':');
    // nmcli writes an unset property as '--' in some versions even in terse mode.
    profile.set(name, text === '--' ? '' : text);
  }
  return profile;
}

/** The profile, or null when NetworkManager holds none of that name (the gateway never applied that section). */
async function readProfile(name: string): Promise<NmProfile | null> {
  return run('nmcli', ['-t', '-s', 'connection', 'show', name]).then(parseProfile, () => null);
}

function list(value: string | undefined): string[] {
  return (value ?? '').split(/[,\s]+/).filter(Boolean);
}

function prefixMask(prefix: number): string {
  return formatIpv4(prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0);
}

/**
 * A wired section from its profile. Under DHCP the address is the one the machine got (`host`);
 * under a fixed address (`manual`, or `shared` when the LAN serves DHCP) the profile's.
 */
export function wiredSettings(p: NmProfile, host: WanSettings): WanSettings {
  const dns = list(p.get('ipv4.dns')).slice(0, 3);
  if (p.get('ipv4.method') === 'auto') return { ...host, connectionType: 'AUTO', dns };
  const [address = '', prefix = ''] = (list(p.get('ipv4.addresses'))[0] ?? '').split('/');
  return { connectionType: 'IMMOBILIZATION', ipAddress: address, subnetMask: address && prefix ? prefixMask(Number(prefix)) : '', gateway: p.get('ipv4.gateway') ?? '', dns };
}

/**
 * The LAN from its profile. NetworkManager's `shared` method is the DHCP server; 1.42 has no
 * property for its pool (it picks the range itself), so the pool is what the host reading had.
 */
export function lanSettings(p: NmProfile, host: LanSettings): LanSettings {
  const wired = wiredSettings(p, host);
  return { ...wired, dhcpServer: { ...host.dhcpServer, enabled: p.get('ipv4.method') === 'shared' } };
}

export function wifiSettings(p: NmProfile): WifiSettings {
  const keyMgmt = p.get('802-11-wireless-security.key-mgmt') ?? '';
  const security: WifiSettings['security'] = keyMgmt === 'wpa-psk' ? 'wpa2' : keyMgmt === 'sae' ? 'wpa3' : keyMgmt === 'none' ? 'wep' : 'none';
  const password = security === 'wep' ? p.get('802-11-wireless-security.wep-key0') : p.get('802-11-wireless-security.psk');
  return {
    enabled: p.get('connection.autoconnect') === 'yes',
    mode: p.get('802-11-wireless.mode') === 'ap' ? 'ap' : 'client',
    ssid: p.get('802-11-wireless.ssid') ?? '',
    security,
    ...(security !== 'none' && password ? { password } : {}),
  };
}

export function cellularSettings(p: NmProfile): CellularSettings {
  const pin = p.get('gsm.pin');
  return { enabled: p.get('connection.autoconnect') === 'yes', apn: p.get('gsm.apn') ?? '', ...(pin ? { pin } : {}) };
}

/** `host` with every section the gateway's profiles hold replaced by what NetworkManager says. */
export async function readProfileSettings(host: NetworkSettings): Promise<NetworkSettings> {
  const [lan, wan, wifi, cellular] = await Promise.all(Object.values(profileNames).map(readProfile));
  return {
    lan: lan ? lanSettings(lan, host.lan) : host.lan,
    wan: wan ? wiredSettings(wan, host.wan) : host.wan,
    wifi: wifi ? wifiSettings(wifi) : host.wifi,
    cellular: cellular ? cellularSettings(cellular) : host.cellular,
  };
}
