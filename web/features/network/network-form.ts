/**
 * Pure helpers of the network page: form values ⇄ contract sections, server refusals onto the
 * section's fields, and whether a plan moves the address the browser is using.
 */
import type { NetworkChange, NetworkSettingsBody, NetworkState } from '../../../server/contract/network.ts';
import type { ErrorBody } from '../../../server/contract/errors.ts';

export type Section = 'lan' | 'wan' | 'wifi' | 'cellular';
export const sections: readonly Section[] = ['lan', 'wan', 'wifi', 'cellular'];

/** One flat form per tab: DNS as comma-separated text, the DHCP server's fields beside the others. */
export interface SectionValues {
  connectionType?: 'IMMOBILIZATION' | 'AUTO';
  ipAddress?: string;
  subnetMask?: string;
  gateway?: string;
  dns?: string;
  dhcpEnabled?: boolean;
  poolStart?: string;
  poolEnd?: string;
  enabled?: boolean;
  mode?: 'client' | 'ap';
  ssid?: string;
  security?: 'none' | 'wep' | 'wpa2' | 'wpa3';
  password?: string;
  apn?: string;
  pin?: string;
}

export function valuesOf(state: NetworkState, section: Section): SectionValues {
  switch (section) {
    case 'lan': {
      const { dhcpServer, dns, ...lan } = state.lan;
      return { ...lan, dns: dns.join(', '), dhcpEnabled: dhcpServer.enabled, poolStart: dhcpServer.poolStart, poolEnd: dhcpServer.poolEnd };
    }
    case 'wan':
      return { ...state.wan, dns: state.wan.dns.join(', ') };
    case 'wifi':
      return { enabled: state.wifi.enabled, mode: state.wifi.mode, ssid: state.wifi.ssid, security: state.wifi.security, password: '' };
    case 'cellular':
      return { enabled: state.cellular.enabled, apn: state.cellular.apn, pin: '' };
  }
}

const text = (v: string | undefined): string => (v ?? '').trim();

/** The body of a plan or apply naming this one section; an empty secret keeps the stored one. */
export function bodyOf(section: Section, v: SectionValues): NetworkSettingsBody {
  const iface = {
    connectionType: v.connectionType ?? 'AUTO',
    ipAddress: text(v.ipAddress),
    subnetMask: text(v.subnetMask),
    gateway: text(v.gateway),
    dns: text(v.dns).split(/[\s,，]+/).filter(Boolean),
  };
  switch (section) {
    case 'lan':
      return { lan: { ...iface, dhcpServer: { enabled: v.dhcpEnabled ?? false, poolStart: text(v.poolStart), poolEnd: text(v.poolEnd) } } };
    case 'wan':
      return { wan: iface };
    case 'wifi': {
      const security = v.security ?? 'wpa2';
      // An open network has no password: send the empty one so a stored password is dropped.
      const password = security === 'none' ? '' : v.password || undefined;
      return { wifi: { enabled: v.enabled ?? false, mode: v.mode ?? 'client', ssid: v.ssid ?? '', security, ...(password === undefined ? {} : { password }) } };
    }
    case 'cellular':
      return { cellular: { enabled: v.enabled ?? false, apn: text(v.apn), ...(v.pin ? { pin: v.pin } : {}) } };
  }
}

/** `body.lan.dhcpServer.poolEnd` → `poolEnd`, `body.wan.dns.1` → `dns`, for the details of this section. */
export function sectionFieldErrors(details: ErrorBody['details'], section: Section): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of details ?? []) {
    const parts = d.field.replace(/^body\./, '').split('.');
    if (parts[0] !== section) continue;
    const named = parts.slice(1).filter((p) => !/^\d+$/.test(p));
    let field = named[named.length - 1] ?? '';
    if (field === 'enabled' && named[0] === 'dhcpServer') field = 'dhcpEnabled';
    if (field && !(field in out)) out[field] = d.key ?? 'error.validation';
  }
  return out;
}

/**
 * Whether applying these changes cuts the session of a browser that reached the console at
 * `hostname`: it came in over the LAN address, and that address, its mask or its type changes.
 */
export function cutsSession(changes: readonly NetworkChange[], lanAddress: string, hostname: string): boolean {
  if (lanAddress === '' || hostname !== lanAddress) return false;
  return changes.some((c) => ['lan.ipAddress', 'lan.subnetMask', 'lan.connectionType'].includes(c.path));
}

/**
 * The applyId a page opened at a new LAN address was handed (`?confirm=…`). A query, not a
 * fragment: at the new origin the browser signs in first, and the sign-in's way back keeps the
 * query but drops a fragment.
 */
export function applyIdFromQuery(search: string): string | null {
  const value = new URLSearchParams(search).get('confirm');
  return value && /^[A-Za-z0-9_-]{16,64}$/.test(value) ? value : null;
}
