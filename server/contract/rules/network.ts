/**
 * The rules of network settings (spec §5: IPv4, contiguous mask, gateway inside the subnet, DHCP
 * pool inside the LAN subnet and in order, MAC format, DNS; WiFi password length by security).
 * Pure functions: the server refuses a plan or apply with them (server/modules/network/) and the
 * page shows the same text beside the field. A wrong network setting on a remote gateway locks
 * everyone out, so the rules are stricter than what the host tools would take.
 */
import type { CellularSettings, LanSettings, NetworkSettingsBody, WanSettings, WifiSettings } from '../network.ts';
import { DNS_MAX } from '../network.ts';
import { problem, type Problem } from './problem.ts';

/** A broken rule and the dotted field it concerns (`lan.dhcpServer.poolEnd`). */
export interface FieldProblem extends Problem {
  field: string;
}

const octet = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const dottedQuad = new RegExp(`^${octet}\\.${octet}\\.${octet}\\.${octet}$`);

/** The address as an unsigned 32-bit number; null for anything but a dotted quad without leading zeros. */
export function parseIpv4(text: unknown): number | null {
  if (typeof text !== 'string' || !dottedQuad.test(text)) return null;
  return text.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

export function formatIpv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => (n >>> shift) & 255).join('.');
}

/** The prefix length of a contiguous mask of 8 to 32 bits (255.0.0.0 … 255.255.255.255); null otherwise. */
export function maskPrefix(mask: unknown): number | null {
  const n = parseIpv4(mask);
  if (n === null) return null;
  const ones = n.toString(2).replace(/0+$/, '');
  if (n === 0 || ones.includes('0')) return null;
  return ones.length >= 8 ? ones.length : null;
}

function maskBits(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

/** Whether `a` and `b` are in the same subnet of this prefix. */
export function sameSubnet(a: number, b: number, prefix: number): boolean {
  const m = maskBits(prefix);
  return ((a & m) >>> 0) === ((b & m) >>> 0);
}

/** A usable host address of the subnet: not its network or broadcast address (for /31 and /32 both are hosts). */
function isHostOf(address: number, prefix: number): boolean {
  if (prefix >= 31) return true;
  const host = (address & ~maskBits(prefix)) >>> 0;
  return host !== 0 && host !== (~maskBits(prefix) >>> 0);
}

/** An IPv4 address a host can have: a dotted quad, not 0.0.0.0, not multicast or 255.255.255.255. */
export function ipv4Problem(value: unknown): Problem | null {
  const n = parseIpv4(value);
  return n === null || n === 0 || n >= 0xe0000000 ? problem('error.network.ipAddress') : null;
}

export function subnetMaskProblem(value: unknown): Problem | null {
  return maskPrefix(value) === null ? problem('error.network.subnetMask') : null;
}

const macPattern = /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/;

export function macProblem(value: unknown): Problem | null {
  return typeof value === 'string' && macPattern.test(value) ? null : problem('error.network.macAddress');
}

function at(prefix: string, field: string, found: Problem | null): FieldProblem[] {
  return found ? [{ field: `${prefix}.${field}`, ...found }] : [];
}

function dnsProblems(prefix: string, dns: readonly string[]): FieldProblem[] {
  if (dns.length > DNS_MAX) return [{ field: `${prefix}.dns`, ...problem('error.network.dns') }];
  const bad = dns.findIndex((d, i) => ipv4Problem(d) !== null || dns.indexOf(d) !== i);
  return bad < 0 ? [] : [{ field: `${prefix}.dns.${bad}`, ...problem('error.network.dns') }];
}

/** A fixed address needs an address, a mask and an optional gateway inside the subnet; AUTO needs only valid DNS. */
export function interfaceProblems(prefix: string, s: WanSettings): FieldProblem[] {
  const found = dnsProblems(prefix, s.dns);
  if (s.connectionType === 'AUTO') return found;
  const address = parseIpv4(s.ipAddress);
  const maskLength = maskPrefix(s.subnetMask);
  const addressBad = ipv4Problem(s.ipAddress) ?? (address !== null && maskLength !== null && !isHostOf(address, maskLength) ? problem('error.network.ipAddress') : null);
  found.unshift(...at(prefix, 'ipAddress', addressBad), ...at(prefix, 'subnetMask', subnetMaskProblem(s.subnetMask)));
  if (s.gateway !== '' && !addressBad && maskLength !== null) {
    const gateway = parseIpv4(s.gateway);
    const inside = gateway !== null && gateway !== address && sameSubnet(gateway, address!, maskLength) && isHostOf(gateway, maskLength);
    if (!inside) found.push({ field: `${prefix}.gateway`, ...problem('error.network.gateway') });
  }
  return found;
}

/** The LAN's interface rules, and a DHCP pool inside its subnet, in order, not holding the LAN address. */
export function lanProblems(s: LanSettings): FieldProblem[] {
  const found = interfaceProblems('lan', s);
  if (!s.dhcpServer.enabled) return found;
  const address = parseIpv4(s.ipAddress);
  const maskLength = maskPrefix(s.subnetMask);
  const base = s.connectionType === 'IMMOBILIZATION' && address !== null && maskLength !== null ? { address, maskLength } : null;
  const inSubnet = (value: string): number | null => {
    const n = parseIpv4(value);
    if (n === null || ipv4Problem(value)) return null;
    if (base && !(sameSubnet(n, base.address, base.maskLength) && isHostOf(n, base.maskLength))) return null;
    return n;
  };
  const start = inSubnet(s.dhcpServer.poolStart);
  const end = inSubnet(s.dhcpServer.poolEnd);
  if (start === null) found.push({ field: 'lan.dhcpServer.poolStart', ...problem('error.network.poolStart') });
  if (end === null || (start !== null && end < start)) found.push({ field: 'lan.dhcpServer.poolEnd', ...problem('error.network.poolEnd') });
  else if (start !== null && base && base.address >= start && base.address <= end) {
    found.push({ field: 'lan.dhcpServer.poolStart', ...problem('error.network.poolHasLanAddress') });
  }
  return found;
}

/** WPA2/WPA3: 8–63 characters (or 64 hex digits, a raw key); WEP: 5 or 13 characters; open: none. */
export function wifiPasswordProblem(security: WifiSettings['security'], password: string | undefined): Problem | null {
  if (password === undefined) return null;
  const ok =
    security === 'none'
      ? password === ''
      : security === 'wep'
        ? password.length === 5 || password.length === 13
        : (password.length >= 8 && password.length <= 63) || /^[0-9A-Fa-f]{64}$/.test(password);
  return ok ? null : problem('error.network.wifiPassword');
}

/**
 * WiFi: an SSID of 1–32 characters when enabled, and a password that fits the security. A secured
 * network needs a password: sent now, or stored before (`passwordSet`).
 */
export function wifiProblems(s: WifiSettings, passwordSet: boolean): FieldProblem[] {
  const found: FieldProblem[] = [];
  const ssidBytes = new TextEncoder().encode(s.ssid).length;
  if (s.enabled && (s.ssid.trim() === '' || ssidBytes > 32)) found.push({ field: 'wifi.ssid', ...problem('error.network.ssid') });
  const missing = s.enabled && s.security !== 'none' && s.password === undefined && !passwordSet;
  const bad = missing ? problem('error.network.wifiPassword') : wifiPasswordProblem(s.security, s.password);
  return [...found, ...at('wifi', 'password', bad)];
}

export function cellularProblems(s: CellularSettings): FieldProblem[] {
  const apnBad = s.apn !== '' && !/^[A-Za-z0-9][A-Za-z0-9.-]{0,62}$/.test(s.apn);
  const pinBad = s.pin !== undefined && s.pin !== '' && !/^\d{4,8}$/.test(s.pin);
  return [
    ...at('cellular', 'apn', apnBad ? problem('error.network.apn') : null),
    ...at('cellular', 'pin', pinBad ? problem('error.network.pin') : null),
  ];
}

/** What the rules of a body need from the settings in effect: the sections it leaves out. */
export interface NetworkRuleContext {
  /** A WiFi password is stored already, so a secured network may be sent without one. */
  passwordSet: boolean;
  lan?: LanSettings;
  wan?: WanSettings;
}

/** Every rule over the sections a body names, and the LAN/WAN overlap against the section it leaves as is. */
export function networkProblems(body: NetworkSettingsBody, context: NetworkRuleContext = { passwordSet: false }): FieldProblem[] {
  const found = [
    ...(body.lan ? lanProblems(body.lan) : []),
    ...(body.wan ? interfaceProblems('wan', body.wan) : []),
    ...(body.wifi ? wifiProblems(body.wifi, context.passwordSet) : []),
    ...(body.cellular ? cellularProblems(body.cellular) : []),
  ];
  const lan = body.lan ?? context.lan;
  const wan = body.wan ?? context.wan;
  if (found.length === 0 && (body.lan || body.wan) && lan && wan) found.push(...overlapProblems(lan, wan));
  return found;
}

/** Two fixed interfaces in one subnet would route the LAN out of the WAN or the reverse. */
function overlapProblems(lan: LanSettings, wan: WanSettings): FieldProblem[] {
  if (lan.connectionType !== 'IMMOBILIZATION' || wan.connectionType !== 'IMMOBILIZATION') return [];
  const [l, w] = [parseIpv4(lan.ipAddress), parseIpv4(wan.ipAddress)];
  const [lp, wp] = [maskPrefix(lan.subnetMask), maskPrefix(wan.subnetMask)];
  if (l === null || w === null || lp === null || wp === null) return [];
  const prefix = Math.min(lp, wp);
  return sameSubnet(l, w, prefix) ? [{ field: 'wan.ipAddress', ...problem('error.network.lanWanSubnet') }] : [];
}
