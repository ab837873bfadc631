/** The plan of an apply: each setting that changes, by dotted path, secrets masked. */
import type { NetworkChange, NetworkSettings } from '../../contract/network.ts';

const secretPaths = new Set(['wifi.password', 'cellular.pin']);
const MASK = '******';

function flatten(value: unknown, prefix: string, into: Map<string, unknown>): void {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, into);
  } else {
    into.set(prefix, value);
  }
}

function shown(path: string, value: unknown): unknown {
  if (!secretPaths.has(path)) return value ?? null;
  return value === undefined || value === '' ? '' : MASK;
}

export function settingsDiff(from: NetworkSettings, to: NetworkSettings): NetworkChange[] {
  const [before, after] = [new Map<string, unknown>(), new Map<string, unknown>()];
  flatten(from, '', before);
  flatten(to, '', after);
  const paths = [...new Set([...before.keys(), ...after.keys()])];
  return paths
    .filter((path) => JSON.stringify(before.get(path) ?? null) !== JSON.stringify(after.get(path) ?? null))
    .map((path) => ({ path, from: shown(path, before.get(path)), to: shown(path, after.get(path)) }));
}
