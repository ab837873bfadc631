/**
 * The `openwrt` applier: the settings are UCI options (`uci set`, `uci commit`), put in effect the
 * way `reload_config` does it (`ubus call service event` config.change per package, which procd
 * turns into netifd, wifi and dnsmasq reloads). OpenWrt has no rollback of its own outside LuCI's
 * in-memory one, so the rollback is the safe apply's durable journal: the previous settings set and
 * committed again. The DHCP pool is an offset and a size from the LAN's network address in UCI.
 */
import { execFile } from 'node:child_process';
import type { NetworkSettings, WifiSecurity } from '../../contract/network.ts';
import { formatIpv4, maskPrefix, parseIpv4 } from '../../contract/rules/network.ts';
import { readHostSettings } from './file-applier.ts';
import type { NetworkApplier, NetworkReading } from './network-applier.ts';

const packages = ['network', 'dhcp', 'wireless'] as const;
/** The UCI sections this applier reads and writes: OpenWrt's default names. */
const WIFI = 'wireless.default_radio0';
const CELLULAR = 'network.wwan';

/** Runs a command (with `input` on its stdin); its error is the command's own output (the page shows it). */
export function run(command: string, args: readonly string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { timeout: 30_000, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${command} ${args[0] ?? ''}: ${(stderr || stdout || err.message).trim()}`));
      else resolve(stdout);
    });
    // A command that exits without reading its stdin (or fails first) closes the pipe: its own error is what counts.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input ?? '');
  });
}

/** A UCI value quoted for `uci batch` (single quotes, a quote inside as '\''). */
const quoted = (value: string): string => `'${value.replaceAll("'", "'\\''")}'`;

/** `uci show` output → option → value (a list's items joined by a space, quotes removed). */
export function parseUciShow(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const items = [...line.slice(eq + 1).matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] ?? m[2] ?? '').replaceAll("'\\''", "'"));
    out.set(line.slice(0, eq), items.join(' '));
  }
  return out;
}

const encryptionOf: Record<WifiSecurity, string> = { none: 'none', wep: 'wep-open', wpa2: 'psk2', wpa3: 'sae' };

function securityOf(encryption: string | undefined): WifiSecurity {
  if (!encryption || encryption === 'none') return 'none';
  if (encryption.startsWith('sae')) return 'wpa3';
  if (encryption.startsWith('wep')) return 'wep';
  return 'wpa2';
}

function poolOf(uci: Map<string, string>, ip: string, mask: string): { poolStart: string; poolEnd: string } {
  const base = parseIpv4(ip);
  const prefix = maskPrefix(mask);
  const start = Number(uci.get('dhcp.lan.start') ?? 100);
  const limit = Number(uci.get('dhcp.lan.limit') ?? 150);
  if (base === null || prefix === null) return { poolStart: '', poolEnd: '' };
  const network = (base & ((0xffffffff << (32 - prefix)) >>> 0)) >>> 0;
  return { poolStart: formatIpv4(network + start), poolEnd: formatIpv4(network + start + limit - 1) };
}

/** The settings UCI holds. */
export function settingsFromUci(uci: Map<string, string>): NetworkSettings {
  const iface = (name: string) => ({
    connectionType: uci.get(`network.${name}.proto`) === 'static' ? ('IMMOBILIZATION' as const) : ('AUTO' as const),
    ipAddress: uci.get(`network.${name}.ipaddr`) ?? '',
    subnetMask: uci.get(`network.${name}.netmask`) ?? '',
    gateway: uci.get(`network.${name}.gateway`) ?? '',
    dns: (uci.get(`network.${name}.dns`) ?? '').split(' ').filter(Boolean),
  });
  const lan = iface('lan');
  const key = uci.get(`${WIFI}.key`);
  const pin = uci.get(`${CELLULAR}.pincode`);
  return {
    lan: { ...lan, dhcpServer: { enabled: uci.get('dhcp.lan.ignore') !== '1', ...poolOf(uci, lan.ipAddress, lan.subnetMask) } },
    wan: iface('wan'),
    wifi: {
      enabled: uci.get(`${WIFI}.disabled`) !== '1' && uci.has(`${WIFI}.ssid`),
      mode: uci.get(`${WIFI}.mode`) === 'sta' ? 'client' : 'ap',
      ssid: uci.get(`${WIFI}.ssid`) ?? '',
      security: securityOf(uci.get(`${WIFI}.encryption`)),
      ...(key ? { password: key } : {}),
    },
    cellular: { enabled: uci.has(`${CELLULAR}.apn`) && uci.get(`${CELLULAR}.auto`) !== '0', apn: uci.get(`${CELLULAR}.apn`) ?? '', ...(pin ? { pin } : {}) },
  };
}

/** The `uci batch` lines that put `s` in UCI (not yet committed); a delete of a missing option is harmless there. */
export function uciCommands(s: NetworkSettings): string[] {
  const set = (option: string, value: string | number | boolean): string =>
    `set ${option}=${quoted(typeof value === 'boolean' ? (value ? '1' : '0') : String(value))}`;
  const del = (option: string): string => `delete ${option}`;
  const out: string[] = [];
  for (const [name, iface] of [['lan', s.lan], ['wan', s.wan]] as const) {
    const fixed = iface.connectionType === 'IMMOBILIZATION';
    out.push(set(`network.${name}.proto`, fixed ? 'static' : 'dhcp'));
    for (const option of ['ipaddr', 'netmask', 'gateway', 'dns']) out.push(del(`network.${name}.${option}`));
    if (fixed) {
      out.push(set(`network.${name}.ipaddr`, iface.ipAddress), set(`network.${name}.netmask`, iface.subnetMask));
      if (iface.gateway) out.push(set(`network.${name}.gateway`, iface.gateway));
    }
    for (const dns of iface.dns) out.push(`add_list network.${name}.dns=${quoted(dns)}`);
  }
  const { dhcpServer } = s.lan;
  out.push(set('dhcp.lan.ignore', !dhcpServer.enabled));
  const [network, first, last] = [parseIpv4(s.lan.ipAddress), parseIpv4(dhcpServer.poolStart), parseIpv4(dhcpServer.poolEnd)];
  const prefix = maskPrefix(s.lan.subnetMask);
  if (dhcpServer.enabled && network !== null && first !== null && last !== null && prefix !== null) {
    const base = (network & ((0xffffffff << (32 - prefix)) >>> 0)) >>> 0;
    out.push(set('dhcp.lan.start', first - base), set('dhcp.lan.limit', last - first + 1));
  }
  out.push(
    set(`${WIFI}.disabled`, !s.wifi.enabled),
    set(`${WIFI}.mode`, s.wifi.mode === 'client' ? 'sta' : 'ap'),
    set(`${WIFI}.ssid`, s.wifi.ssid),
    set(`${WIFI}.encryption`, encryptionOf[s.wifi.security]),
    s.wifi.password ? set(`${WIFI}.key`, s.wifi.password) : del(`${WIFI}.key`),
    set(`${CELLULAR}.auto`, s.cellular.enabled),
    set(`${CELLULAR}.apn`, s.cellular.apn),
    s.cellular.pin ? set(`${CELLULAR}.pincode`, s.cellular.pin) : del(`${CELLULAR}.pincode`),
  );
  return out;
}

export class OpenWrtApplier implements NetworkApplier {
  readonly name = 'openwrt';
  readonly touchesHost = true;

  async read(): Promise<NetworkReading> {
    const shown = await Promise.all(packages.map((p) => run('uci', ['-q', 'show', p]).catch(() => '')));
    return { settings: settingsFromUci(parseUciShow(shown.join('\n'))), facts: readHostSettings().facts };
  }

  private async put(s: NetworkSettings): Promise<void> {
    // One batch on stdin: secrets stay out of the process list, and one process instead of forty.
    await run('uci', ['batch'], `${uciCommands(s).join('\n')}\n`);
    for (const p of packages) await run('uci', ['commit', p]);
    for (const p of packages) await run('ubus', ['call', 'service', 'event', JSON.stringify({ type: 'config.change', data: { package: p } })]);
  }

  async apply(next: NetworkSettings): Promise<void> {
    await this.put(next);
  }

  async confirm(): Promise<void> {}

  async rollback(previous: NetworkSettings): Promise<void> {
    // Changes a failed apply left staged but uncommitted go first, so they are not committed with the previous settings.
    for (const p of packages) await run('uci', ['revert', p]).catch(() => undefined);
    await this.put(previous);
  }

  async scanWifi(): Promise<[]> {
    // `iwinfo <radio> scan` answers on OpenWrt; not parsed yet (docs/NETWORK.md says so).
    return [];
  }
}
