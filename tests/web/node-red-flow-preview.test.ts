import { describe, expect, it } from 'vitest';
import { diffFlows } from '../../web/features/node-red/flowDiff.ts';
import { layoutFlows, type FlowItem } from '../../web/features/node-red/flowLayout.ts';

const flows: FlowItem[] = [
  { id: 't1', type: 'tab', label: 'Meters' },
  { id: 'sf', type: 'subflow', name: 'Decode frame', in: [{ x: 40, y: 40, wires: [] }], out: [] },
  { id: 'g1', type: 'group', z: 't1', name: 'Polling', x: 20, y: 40, w: 400, h: 120 },
  { id: 'i1', type: 'inject', z: 't1', name: 'every 5 s', x: 120, y: 100, wires: [['s1']] },
  { id: 's1', type: 'subflow:sf', z: 't1', x: 320, y: 100, wires: [['d1'], ['d2']] },
  { id: 'd1', type: 'debug', z: 't1', x: 520, y: 80, wires: [] },
  { id: 'd2', type: 'debug', z: 't1', name: 'errors', x: 520, y: 140, wires: [] },
  { id: 'f1', type: 'function', z: 'sf', name: 'parse', x: 200, y: 60, wires: [[]] },
  { id: 'b1', type: 'mqtt-broker', name: 'broker', broker: 'localhost' },
];

describe('soft gateway flow preview', () => {
  it('lays out each tab and subflow with its nodes, wires, groups and subflow instances', () => {
    const [meters, decode] = layoutFlows(flows);
    expect(meters!.label).toBe('Meters');
    expect(meters!.nodes.map((n) => n.label)).toEqual(['every 5 s', 'Decode frame', 'debug', 'errors']);
    expect(meters!.nodes.find((n) => n.id === 's1')).toMatchObject({ subflow: true, outputs: 2, inputs: 1 });
    expect(meters!.nodes.find((n) => n.id === 'i1')).toMatchObject({ inputs: 0, outputs: 1 });
    expect(meters!.groups).toEqual([{ id: 'g1', label: 'Polling', x: 20, y: 40, w: 400, h: 120 }]);
    expect(meters!.wires.map((w) => `${w.from}>${w.to}`)).toEqual(['i1>s1', 's1>d1', 's1>d2']);
    // The two outputs of the subflow instance leave from different heights.
    const [first, second] = meters!.wires.slice(1).map((w) => Number(/^M[\d.]+,([\d.]+)/.exec(w.d)![1]));
    expect(second).toBeGreaterThan(first!);
    expect(meters!.width).toBeGreaterThan(520);
    expect(decode).toMatchObject({ label: 'Decode frame', subflow: true });
    expect(decode!.nodes.map((n) => n.id)).toEqual(['f1']);
  });

  it('ignores wires to missing nodes and items that are not objects of a known tab', () => {
    const [tab] = layoutFlows([{ id: 't', type: 'tab' }, { id: 'a', type: 'inject', z: 't', wires: [['gone']] }, { id: 'x', type: 'debug', z: 'nowhere' }]);
    expect(tab!.wires).toEqual([]);
    expect(tab!.nodes.map((n) => n.id)).toEqual(['a']);
  });

  it('lists nodes added, removed and changed between two snapshots, whatever their key order', () => {
    const after: FlowItem[] = flows
      .filter((n) => n['id'] !== 'd2')
      .map((n) => (n['id'] === 'b1' ? { ...n, broker: 'meter-hub' } : n['id'] === 'i1' ? { wires: n['wires'], x: 120, y: 100, z: 't1', name: 'every 5 s', type: 'inject', id: 'i1' } : n));
    after.push({ id: 'c1', type: 'change', z: 't1', x: 700, y: 100, wires: [] });
    expect(diffFlows(flows, after)).toEqual([
      { id: 'b1', kind: 'changed', type: 'mqtt-broker', label: 'broker', tab: '' },
      { id: 'c1', kind: 'added', type: 'change', label: 'change', tab: 'Meters' },
      { id: 'd2', kind: 'removed', type: 'debug', label: 'errors', tab: 'Meters' },
    ]);
    expect(diffFlows(flows, flows)).toEqual([]);
  });
});
