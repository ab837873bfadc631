/**
 * What makes a protocol module's `flow` a Node-RED flow, and how its items are added to an
 * instance: under new ids (every reference rewritten: z, g, wires, links, `subflow:<id>` types), so
 * a module installs twice, or next to its own earlier version, without clashing.
 */
import { randomBytes } from 'node:crypto';
import type { ProtocolModuleKind } from '../../contract/protocol-module.ts';

type Item = Record<string, unknown>;

/** The module's kind, or null when `flow` is not a Node-RED flow (ids and types, something that runs). */
export function flowKind(flow: readonly Item[]): ProtocolModuleKind | null {
  if (flow.length === 0) return null;
  const ids = new Set<string>();
  for (const item of flow) {
    if (typeof item['id'] !== 'string' || !item['id'] || typeof item['type'] !== 'string' || !item['type']) return null;
    if (ids.has(item['id'])) return null;
    ids.add(item['id']);
  }
  if (flow.some((n) => n['type'] === 'subflow')) return 'SUBFLOW';
  // Config nodes alone (no x/y, no z) are not a flow.
  return flow.some((n) => n['type'] !== 'tab' && typeof n['z'] === 'string') ? 'FLOW' : null;
}

/** Node-RED's id style: 16 hex digits. */
const newNodeId = (): string => randomBytes(8).toString('hex');

function rewrite(value: unknown, ids: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') {
    if (ids.has(value)) return ids.get(value);
    return value.startsWith('subflow:') && ids.has(value.slice(8)) ? `subflow:${ids.get(value.slice(8))}` : value;
  }
  if (Array.isArray(value)) return value.map((v) => rewrite(v, ids));
  return value;
}

/** Fields of a node that name other nodes (wires and links are arrays of ids). */
const REFERENCES = new Set(['id', 'z', 'g', 'type', 'wires', 'links', 'nodes', 'scope']);

/**
 * The module's items under fresh ids. A flow whose nodes sit on no tab of the module gets a tab
 * named `tabLabel`; the module's own tabs and subflows are kept (renamed ids only).
 */
export function installableItems(flow: readonly Item[], tabLabel: string): Item[] {
  const ids = new Map(flow.map((n) => [String(n['id']), newNodeId()]));
  const containers = new Set(flow.filter((n) => n['type'] === 'tab' || n['type'] === 'subflow').map((n) => String(n['id'])));
  const items: Item[] = flow.map((n) => {
    const copy: Item = {};
    for (const [key, value] of Object.entries(n)) copy[key] = REFERENCES.has(key) ? rewrite(value, ids) : value;
    return copy;
  });
  const homeless = items.filter((n, i) => typeof flow[i]!['z'] === 'string' && !containers.has(String(flow[i]!['z'])));
  if (homeless.length > 0) {
    const tab = { id: newNodeId(), type: 'tab', label: tabLabel, disabled: false, info: '' };
    for (const n of homeless) n['z'] = tab.id;
    items.unshift(tab);
  }
  return items;
}
