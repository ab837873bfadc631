/**
 * The `networkmanager` applier: one NetworkManager connection profile per section (`edge-lan`,
 * `edge-wan`, `edge-wifi`, `edge-cellular`), changed with `nmcli`, under a NetworkManager
 * checkpoint (D-Bus `CheckpointCreate` through `busctl`, no native addon) whose rollback timeout
 * outlasts the safe apply's window: if the gateway dies in the window, NetworkManager itself puts
 * the previous settings back; if the gateway lives, its own timer (or a confirmation) comes first
 * and destroys or rolls back the checkpoint. Tested against a real NetworkManager in a network
 * namespace (tests/integration/network-networkmanager.test.ts; WiFi and a modem excepted, see
 * docs/NETWORK.md) and the profile arguments with `nmcli --offline`.
 */
import type { NetworkSettings, WanSettings, WifiNetwork } from '../../contract/network.ts';
import { maskPrefix } from '../../contract/rules/network.ts';
import { readHostSettings } from './file-applier.ts';
import type { ApplyWindow, NetworkApplier, NetworkReading } from './network-applier.ts';
import { readModem, unlockSim } from './modem-reader.ts';
import { profileNames, readProfileSettings, splitTerse } from './nm-profile-reader.ts';
import { run } from './openwrt-applier.ts';

const NM = ['org.freedesktop.NetworkManager', '/org/freedesktop/NetworkManager', 'org.freedesktop.NetworkManager'] as const;
/** Seconds NetworkManager waits beyond the safe apply's window before rolling back by itself. */
const CHECKPOINT_GRACE_S = 15;
/**
 * NM_CHECKPOINT_CREATE_FLAG_DESTROY_ALL (an older checkpoint, a crashed apply's, never blocks a new
 * one) | DELETE_NEW_CONNECTIONS (a rollback also removes the profiles the apply added; without it
 * they stay beside the restored ones, seen in the namespace test).
 */
const CHECKPOINT_FLAGS = 0x1 | 0x2;

function ipv4Args(s: WanSettings, shared: boolean): string[] {
  const fixed = s.connectionType === 'IMMOBILIZATION';
  const prefix = maskPrefix(s.subnetMask);
  const address = ['ipv4.addresses', fixed && prefix !== null ? `${s.ipAddress}/${prefix}` : ''];
  // A shared (DHCP-serving) interface takes no DNS of its own: NetworkManager refuses the property.
  if (shared) return ['ipv4.method', 'shared', ...address];
  return [
    'ipv4.method', fixed ? 'manual' : 'auto',
    ...address,
    'ipv4.gateway', fixed ? s.gateway : '',
    'ipv4.dns', s.dns.join(','),
    'ipv4.ignore-auto-dns', s.dns.length > 0 ? 'yes' : 'no',
  ];
}

/**
 * The `nmcli connection add` arguments of each section's profile. The LAN's DHCP server is
 * NetworkManager's `shared` method (its own dnsmasq); NetworkManager 1.42 picks the pool itself,
 * so the pool range is not applied (docs/NETWORK.md).
 */
export function profileArgs(s: NetworkSettings, ifnames: { lan: string; wan: string; wifi: string }): Record<keyof typeof profileNames, string[]> {
  const wifiSecurity = { none: [], wep: ['wifi-sec.key-mgmt', 'none', 'wifi-sec.wep-key0', s.wifi.password ?? ''], wpa2: ['wifi-sec.key-mgmt', 'wpa-psk', 'wifi-sec.psk', s.wifi.password ?? ''], wpa3: ['wifi-sec.key-mgmt', 'sae', 'wifi-sec.psk', s.wifi.password ?? ''] }[s.wifi.security];
  return {
    lan: ['type', 'ethernet', 'con-name', profileNames.lan, 'ifname', ifnames.lan, ...ipv4Args(s.lan, s.lan.dhcpServer.enabled && s.lan.connectionType === 'IMMOBILIZATION')],
    wan: ['type', 'ethernet', 'con-name', profileNames.wan, 'ifname', ifnames.wan, ...ipv4Args(s.wan, false)],
    wifi: [
      'type', 'wifi', 'con-name', profileNames.wifi, 'ifname', ifnames.wifi || '*', 'ssid', s.wifi.ssid || 'edge',
      '802-11-wireless.mode', s.wifi.mode === 'ap' ? 'ap' : 'infrastructure',
      'connection.autoconnect', s.wifi.enabled ? 'yes' : 'no',
      ...(s.wifi.mode === 'ap' ? ['ipv4.method', 'shared'] : []),
      ...wifiSecurity,
    ],
    cellular: [
      'type', 'gsm', 'con-name', profileNames.cellular, 'ifname', '*', 'gsm.apn', s.cellular.apn,
      'connection.autoconnect', s.cellular.enabled ? 'yes' : 'no',
      ...(s.cellular.pin ? ['gsm.pin', s.cellular.pin] : []),
    ],
  };
}

/**
 * NetworkManager's security words (`WPA2`, `WPA1 WPA2`, `WPA2 WPA3` for a transition network,
 * `WPA3`, `WEP`, `OWE`, '' for open) as the console's. A WPA2/WPA3 transition network is joined
 * as WPA2, which every client speaks.
 */
function securityOf(words: string): WifiNetwork['security'] {
  if (words.includes('WPA2') || words.includes('WPA1')) return 'wpa2';
  if (words.includes('WPA3')) return 'wpa3';
  if (words.includes('WEP')) return 'wep';
  return 'none';
}

/** `nmcli -t -f SSID,SIGNAL,SECURITY device wifi list`: one entry per SSID (its strongest access point), strongest first; hidden networks (no SSID) left out. */
export function parseWifiList(out: string): WifiNetwork[] {
  const seen = new Map<string, WifiNetwork>();
  for (const line of out.split('\n')) {
    const [ssid = '', signal = '0', security = ''] = splitTerse(line);
    // Hidden networks: no SSID to join by (nmcli's tabular output writes them as '--').
    if (!ssid || ssid === '--') continue;
    const entry: WifiNetwork = { ssid, signal: Number(signal) || 0, security: securityOf(security) };
    if ((seen.get(ssid)?.signal ?? -1) < entry.signal) seen.set(ssid, entry);
  }
  return [...seen.values()].sort((a, b) => b.signal - a.signal);
}

async function busCall(method: string, signature: string, ...args: string[]): Promise<unknown> {
  const out = await run('busctl', ['--json=short', 'call', ...NM, method, signature, ...args]);
  return out.trim() ? (JSON.parse(out) as { data?: unknown[] }).data?.[0] : undefined;
}

export class NetworkManagerApplier implements NetworkApplier {
  readonly name = 'networkmanager';
  readonly touchesHost = true;

  /**
   * The gateway's profiles as NetworkManager holds them (sections it has no profile for: the host
   * as its readers see it) and the modem as ModemManager sees it.
   */
  async read(): Promise<NetworkReading> {
    const host = readHostSettings();
    const [settings, cellular] = await Promise.all([readProfileSettings(host.settings), readModem()]);
    return { settings, facts: { ...host.facts, cellular } };
  }

  private async put(s: NetworkSettings): Promise<void> {
    const { facts } = readHostSettings();
    const profiles = profileArgs(s, { lan: facts.lan.interfaceName, wan: facts.wan.interfaceName, wifi: facts.wifi.interfaceName });
    for (const [section, args] of Object.entries(profiles) as [keyof typeof profileNames, string[]][]) {
      if (section !== 'wan' && section !== 'lan' && !(section === 'wifi' ? s.wifi.enabled : s.cellular.enabled)) {
        await run('nmcli', ['connection', 'down', profileNames[section]]).catch(() => undefined);
        continue;
      }
      if ((section === 'lan' || section === 'wan') && !facts[section].interfaceName) continue;
      // Replaced whole rather than modified, so no property of an older profile survives.
      await run('nmcli', ['connection', 'delete', profileNames[section]]).catch(() => undefined);
      await run('nmcli', ['connection', 'add', ...args]);
      await run('nmcli', ['connection', 'up', profileNames[section]]);
    }
  }

  async apply(next: NetworkSettings, window: ApplyWindow): Promise<void> {
    const checkpoint = await busCall('CheckpointCreate', 'aouu', '0', String(window.confirmWithinS + CHECKPOINT_GRACE_S), String(CHECKPOINT_FLAGS));
    if (typeof checkpoint !== 'string') throw new Error('busctl CheckpointCreate: no checkpoint path in the answer');
    window.keep(checkpoint);
    // A SIM waiting for its PIN never lets the modem register, so the gsm profile could not come up.
    if (next.cellular.enabled && next.cellular.pin) await unlockSim(next.cellular.pin);
    await this.put(next);
  }

  async confirm(token: string | undefined): Promise<void> {
    if (token) await busCall('CheckpointDestroy', 'o', token);
  }

  async rollback(previous: NetworkSettings, token: string | undefined): Promise<void> {
    if (token) {
      const rolledBack = await busCall('CheckpointRollback', 'o', token).then(() => true, () => false);
      if (rolledBack) return;
    }
    // No checkpoint (a failure before it, or NetworkManager already rolled back after a restart): set the previous profiles again.
    await this.put(previous);
  }

  async scanWifi(): Promise<WifiNetwork[]> {
    return parseWifiList(await run('nmcli', ['-t', '-f', 'SSID,SIGNAL,SECURITY', 'device', 'wifi', 'list']).catch(() => ''));
  }
}
