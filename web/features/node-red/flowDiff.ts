/**
 * What changed between two flows files (an older and a newer snapshot, or a snapshot and the
 * deployed flows): items added, removed or changed, matched by id. Config nodes and tabs count
 * too, so a changed broker address shows even though it is drawn on no tab.
 */
import { nodeLabel, type FlowItem } from './flowLayout.ts';

export const flowChangeKinds = ['added', 'removed', 'changed'] as const;
export type FlowChangeKind = (typeof flowChangeKinds)[number];

export interface FlowChange {
  id: string;
  kind: FlowChangeKind;
  type: string;
  label: string;
  /** The label of the tab or subflow it sits on; empty for tabs and config nodes. */
  tab: string;
}

/** JSON with object keys sorted, so two saves of the same node compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function byId(flows: readonly FlowItem[]): Map<string, FlowItem> {
  return new Map(flows.filter((n) => typeof n['id'] === 'string').map((n) => [n['id'] as string, n]));
}

function containerLabels(flows: readonly FlowItem[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const n of flows) if (n['type'] === 'tab' || n['type'] === 'subflow') out.set(String(n['id']), String(n['label'] ?? n['name'] ?? n['id']));
  return out;
}

/** Changes from `before` to `after`, in `after`'s order with the removed ones last. */
export function diffFlows(before: readonly FlowItem[], after: readonly FlowItem[]): FlowChange[] {
  const old = byId(before);
  const now = byId(after);
  const names = new Map([...containerLabels(before), ...containerLabels(after)]);
  const change = (n: FlowItem, kind: FlowChangeKind): FlowChange => ({
    id: String(n['id']),
    kind,
    type: String(n['type'] ?? ''),
    label: nodeLabel(n, names),
    tab: typeof n['z'] === 'string' ? (names.get(n['z']) ?? '') : '',
  });
  const out: FlowChange[] = [];
  for (const [id, n] of now) {
    const was = old.get(id);
    if (!was) out.push(change(n, 'added'));
    else if (canonical(was) !== canonical(n)) out.push(change(n, 'changed'));
  }
  for (const [id, n] of old) if (!now.has(id)) out.push(change(n, 'removed'));
  return out;
}
