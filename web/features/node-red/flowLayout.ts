/**
 * The geometry of a read-only flow picture: Node-RED's flows file (an array of nodes, tabs,
 * subflow definitions, groups and config nodes) turned into boxes, ports and wires per tab, the
 * way the editor places them (a node's x/y is its centre; outputs on the right edge, one input on
 * the left). Pure so the preview, its tests and the bench draw the same thing.
 */

export type FlowItem = Record<string, unknown>;

export interface LaidNode {
  id: string;
  type: string;
  label: string;
  x: number;
  y: number;
  w: number;
  h: number;
  inputs: number;
  outputs: number;
  /** A subflow instance (`subflow:<id>`), drawn with its own mark. */
  subflow: boolean;
}

export interface LaidWire {
  from: string;
  to: string;
  /** Path data of the bezier from the source's output port to the target's input. */
  d: string;
}

export interface LaidGroup {
  id: string;
  label: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface LaidTab {
  id: string;
  label: string;
  /** A subflow's definition rather than a flow tab. */
  subflow: boolean;
  nodes: LaidNode[];
  wires: LaidWire[];
  groups: LaidGroup[];
  width: number;
  height: number;
}

const NODE_H = 30;
const PORT_STEP = 13;
const MIN_W = 100;
const CHAR_W = 7;
const MARGIN = 40;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** The node's label as the editor shows it when it has no label function of its own: name, then label, then type. */
export function nodeLabel(node: FlowItem, subflowNames: ReadonlyMap<string, string>): string {
  const type = str(node['type']);
  const named = str(node['name']) || str(node['label']);
  if (named) return named;
  if (type.startsWith('subflow:')) return subflowNames.get(type.slice(8)) ?? type;
  return type;
}

function wiresOf(node: FlowItem): string[][] {
  const raw = node['wires'];
  if (!Array.isArray(raw)) return [];
  return raw.map((port) => (Array.isArray(port) ? port.filter((t): t is string => typeof t === 'string') : []));
}

/** A box's ports: outputs from its wires (or the subflow's/`outputs` count), one input unless it is a source. */
function ports(node: FlowItem): { inputs: number; outputs: number } {
  const outputs = Math.max(wiresOf(node).length, num(node['outputs']));
  const sources = new Set(['inject', 'mqtt in', 'http in', 'tcp in', 'udp in', 'websocket in', 'link in', 'status', 'catch', 'complete']);
  return { inputs: sources.has(str(node['type'])) ? 0 : 1, outputs };
}

function layNode(node: FlowItem, subflowNames: ReadonlyMap<string, string>): LaidNode {
  const label = nodeLabel(node, subflowNames);
  const { inputs, outputs } = ports(node);
  const w = Math.max(MIN_W, Math.ceil((label.length * CHAR_W + 50) / 20) * 20);
  const h = Math.max(NODE_H, (outputs - 1) * PORT_STEP + NODE_H);
  const type = str(node['type']);
  return { id: str(node['id']), type, label, x: num(node['x']), y: num(node['y']), w, h, inputs, outputs, subflow: type.startsWith('subflow:') };
}

function outputPort(n: LaidNode, port: number): [number, number] {
  const top = n.y - n.h / 2;
  const y = n.outputs <= 1 ? n.y : top + NODE_H / 2 + port * PORT_STEP;
  return [n.x + n.w / 2, y];
}

function wirePath(a: [number, number], b: [number, number]): string {
  const dx = Math.max(40, Math.abs(b[0] - a[0]) / 2);
  return `M${a[0]},${a[1]} C${a[0] + dx},${a[1]} ${b[0] - dx},${b[1]} ${b[0]},${b[1]}`;
}

/** The tabs of a flows file in their file order (flow tabs first, then subflow definitions), each with what sits on it. */
export function layoutFlows(flows: readonly FlowItem[]): LaidTab[] {
  const subflowNames = new Map<string, string>();
  const tabs: LaidTab[] = [];
  const byTab = new Map<string, LaidTab>();
  for (const item of flows) {
    const type = str(item['type']);
    if (type !== 'tab' && type !== 'subflow') continue;
    const id = str(item['id']);
    const label = str(item['label']) || str(item['name']) || id;
    if (type === 'subflow') subflowNames.set(id, label);
    const tab: LaidTab = { id, label, subflow: type === 'subflow', nodes: [], wires: [], groups: [], width: 0, height: 0 };
    tabs.push(tab);
    byTab.set(id, tab);
  }
  const laid = new Map<string, LaidNode>();
  for (const item of flows) {
    const tab = byTab.get(str(item['z']));
    if (!tab) continue;
    if (str(item['type']) === 'group') {
      tab.groups.push({ id: str(item['id']), label: str(item['name']), x: num(item['x']), y: num(item['y']), w: num(item['w']), h: num(item['h']) });
      continue;
    }
    const node = layNode(item, subflowNames);
    tab.nodes.push(node);
    laid.set(node.id, node);
  }
  for (const item of flows) {
    const source = laid.get(str(item['id']));
    const tab = byTab.get(str(item['z']));
    if (!source || !tab) continue;
    wiresOf(item).forEach((targets, port) => {
      for (const targetId of targets) {
        const target = laid.get(targetId);
        if (!target) continue;
        tab.wires.push({ from: source.id, to: target.id, d: wirePath(outputPort(source, port), [target.x - target.w / 2, target.y]) });
      }
    });
  }
  for (const tab of tabs) {
    const right = [...tab.nodes.map((n) => n.x + n.w / 2), ...tab.groups.map((g) => g.x + g.w)];
    const bottom = [...tab.nodes.map((n) => n.y + n.h / 2), ...tab.groups.map((g) => g.y + g.h)];
    tab.width = Math.max(200, ...right) + MARGIN;
    tab.height = Math.max(100, ...bottom) + MARGIN;
  }
  return tabs;
}
