/** What the network tests share: a LAN change to apply, and the settings part of a read LAN. */
import type { LanSettings, NetworkState } from '../../server/contract/network.ts';

export const newLan: LanSettings = {
  connectionType: 'IMMOBILIZATION',
  ipAddress: '10.123.45.1',
  subnetMask: '255.255.255.0',
  gateway: '',
  dns: [],
  dhcpServer: { enabled: true, poolStart: '10.123.45.100', poolEnd: '10.123.45.200' },
};

/** The settings part of the LAN as GET shows it (without the machine's read-only facts). */
export function lanSettings(s: NetworkState): LanSettings {
  const { interfaceName: _name, macAddress: _mac, ...lan } = s.lan;
  return lan;
}
