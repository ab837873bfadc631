/**
 * What the machine's network looks like right now, read without privileges: addresses from
 * node:os, MACs and wireless-ness from /sys/class/net, the default route from /proc/net/route, DNS
 * from /etc/resolv.conf. Every applier starts from this; the roles (which interface is the WAN,
 * which the LAN) are guessed the way a gateway is usually wired: the WAN holds the default route,
 * the LAN is the first other wired interface, the WiFi the first wireless one.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import type { WanSettings } from '../../contract/network.ts';
import { formatIpv4 } from '../../contract/rules/network.ts';

/** Where the readers look: tests point them at a fake tree. */
export interface HostPaths {
  sysClassNet: string;
  procRoute: string;
  resolvConf: string;
}

export const hostPaths: HostPaths = { sysClassNet: '/sys/class/net', procRoute: '/proc/net/route', resolvConf: '/etc/resolv.conf' };

export interface HostInterface {
  name: string;
  macAddress: string;
  wireless: boolean;
  ipAddress: string;
  subnetMask: string;
}

export interface HostNetwork {
  interfaces: HostInterface[];
  /** Default gateway and the interface holding it; null without a default route. */
  defaultRoute: { interfaceName: string; gateway: string } | null;
  dns: string[];
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** /proc/net/route writes addresses as little-endian hex. */
function routeAddress(hex: string): string {
  const n = Number.parseInt(hex, 16);
  return formatIpv4((((n & 0xff) << 24) | ((n >>> 8) & 0xff) << 16 | ((n >>> 16) & 0xff) << 8 | (n >>> 24)) >>> 0);
}

export function readDefaultRoute(paths: HostPaths = hostPaths): HostNetwork['defaultRoute'] {
  for (const line of readText(paths.procRoute).split('\n').slice(1)) {
    const [iface, destination, gateway] = line.trim().split(/\s+/);
    if (iface && destination === '00000000' && gateway) return { interfaceName: iface, gateway: routeAddress(gateway) };
  }
  return null;
}

export function readDns(paths: HostPaths = hostPaths): string[] {
  return readText(paths.resolvConf)
    .split('\n')
    .map((line) => /^\s*nameserver\s+(\d+\.\d+\.\d+\.\d+)\s*$/.exec(line)?.[1])
    .filter((d): d is string => d !== undefined);
}

function listInterfaceNames(paths: HostPaths): string[] {
  try {
    return readdirSync(paths.sysClassNet).filter((name) => name !== 'lo').sort();
  } catch {
    return [];
  }
}

export function readHostNetwork(paths: HostPaths = hostPaths): HostNetwork {
  const addresses = networkInterfaces();
  const interfaces = listInterfaceNames(paths).map((name): HostInterface => {
    const v4 = addresses[name]?.find((a) => a.family === 'IPv4');
    return {
      name,
      macAddress: readText(join(paths.sysClassNet, name, 'address')).trim().toUpperCase(),
      wireless: existsSync(join(paths.sysClassNet, name, 'wireless')),
      ipAddress: v4?.address ?? '',
      subnetMask: v4?.netmask ?? '',
    };
  });
  return { interfaces, defaultRoute: readDefaultRoute(paths), dns: readDns(paths) };
}

/** Host interfaces that are real ports: virtual ones (ifb, veth, docker, bridges of containers) are not LAN candidates. */
function isPort(i: HostInterface): boolean {
  return !/^(ifb|veth|docker|virbr|tun|tap|wg|dummy)/.test(i.name);
}

/** Which host interface plays which role. */
export function interfaceRoles(host: HostNetwork): { wan?: HostInterface; lan?: HostInterface; wifi?: HostInterface } {
  const wan = host.interfaces.find((i) => i.name === host.defaultRoute?.interfaceName);
  const lan = host.interfaces.find((i) => i !== wan && !i.wireless && isPort(i) && i.ipAddress !== '');
  const wifi = host.interfaces.find((i) => i.wireless);
  return { wan, lan, wifi };
}

/** The settings an interface has on the host; DHCP or fixed cannot be told from an address, so it says what the applier knows. */
export function hostInterfaceSettings(host: HostNetwork, i: HostInterface | undefined, connectionType: WanSettings['connectionType']): WanSettings {
  const holdsDefault = i !== undefined && host.defaultRoute?.interfaceName === i.name;
  return {
    connectionType,
    ipAddress: i?.ipAddress ?? '',
    subnetMask: i?.subnetMask ?? '',
    gateway: holdsDefault ? host.defaultRoute!.gateway : '',
    dns: holdsDefault ? host.dns.slice(0, 3) : [],
  };
}
