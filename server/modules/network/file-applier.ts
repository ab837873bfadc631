/**
 * The `file` applier (the default): settings go to `<data-dir>/network/desired.json` and nothing on
 * the host changes, so a development machine or a test is never cut off. The machine's own
 * addresses are read until a first apply; after it, the file plays the host's configuration (what
 * a real applier would have put in effect), while MACs and interface names stay the machine's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NetworkSettings } from '../../contract/network.ts';
import { writeFileDurably } from '../../lib/durable-file.ts';
import { hostInterfaceSettings, interfaceRoles, readHostNetwork, type HostPaths, hostPaths } from './host-network.ts';
import { noModem, type NetworkApplier, type NetworkFacts, type NetworkReading } from './network-applier.ts';

/** The settings and facts of the host as the readers find it, before any applier wrote anything. */
export function readHostSettings(paths: HostPaths = hostPaths): NetworkReading {
  const host = readHostNetwork(paths);
  const roles = interfaceRoles(host);
  const lan = hostInterfaceSettings(host, roles.lan, 'IMMOBILIZATION');
  const facts: NetworkFacts = {
    lan: { interfaceName: roles.lan?.name ?? '', macAddress: roles.lan?.macAddress ?? '' },
    wan: { interfaceName: roles.wan?.name ?? '', macAddress: roles.wan?.macAddress ?? '' },
    wifi: { interfaceName: roles.wifi?.name ?? '', macAddress: roles.wifi?.macAddress ?? '' },
    cellular: noModem,
  };
  const settings: NetworkSettings = {
    lan: { ...lan, dhcpServer: { enabled: false, poolStart: '', poolEnd: '' } },
    // Which of DHCP or a fixed address gave the WAN its address cannot be read without the
    // network manager; a gateway's uplink is DHCP far more often.
    wan: hostInterfaceSettings(host, roles.wan, 'AUTO'),
    wifi: { enabled: roles.wifi !== undefined && roles.wifi.ipAddress !== '', mode: 'client', ssid: '', security: 'wpa2' },
    cellular: { enabled: false, apn: '' },
  };
  return { settings, facts };
}

export class FileApplier implements NetworkApplier {
  readonly name = 'file';
  readonly touchesHost = false;
  private readonly desiredPath: string;

  constructor(dir: string, private readonly paths: HostPaths = hostPaths) {
    this.desiredPath = join(dir, 'desired.json');
  }

  async read(): Promise<NetworkReading> {
    const host = readHostSettings(this.paths);
    let desired: NetworkSettings | null = null;
    try {
      desired = JSON.parse(readFileSync(this.desiredPath, 'utf8')) as NetworkSettings;
    } catch {
      // No apply yet: the machine's own settings are the ones in effect.
    }
    return desired ? { settings: desired, facts: host.facts } : host;
  }

  async apply(next: NetworkSettings): Promise<void> {
    writeFileDurably(this.desiredPath, JSON.stringify(next, null, 2));
  }

  async confirm(): Promise<void> {}

  async rollback(previous: NetworkSettings): Promise<void> {
    writeFileDurably(this.desiredPath, JSON.stringify(previous, null, 2));
  }

  async scanWifi(): Promise<[]> {
    // Scanning needs the radio's manager; this applier talks to none.
    return [];
  }
}
