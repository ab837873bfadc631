/**
 * One tab of a flow picture as SVG (geometry from flowLayout.ts): groups as boxes behind, wires,
 * then the nodes with their ports, labels and types. With a diff, added, changed and removed
 * nodes carry their kind's colour (removed ones dashed). Depends on nothing but React so the
 * bench (scripts/lib/bench-flow-preview.ts) draws exactly this.
 */
import type { JSX } from 'react';
import type { FlowChangeKind } from './flowDiff.ts';
import type { LaidNode, LaidTab } from './flowLayout.ts';

const kindColour: Record<FlowChangeKind, string> = {
  added: 'rgb(var(--green-6))',
  changed: 'rgb(var(--orange-6))',
  removed: 'rgb(var(--red-6))',
};

function Node({ node, kind }: { node: LaidNode; kind: FlowChangeKind | undefined }): JSX.Element {
  const left = node.x - node.w / 2;
  const top = node.y - node.h / 2;
  const stroke = kind ? kindColour[kind] : 'var(--color-border-4)';
  const outs = Array.from({ length: node.outputs }, (_, i) => (node.outputs <= 1 ? node.y : top + 15 + i * 13));
  return (
    <g data-node-id={node.id} data-change={kind}>
      <title>{`${node.label} (${node.type})`}</title>
      <rect
        x={left}
        y={top}
        width={node.w}
        height={node.h}
        rx={5}
        fill="var(--color-bg-2)"
        stroke={stroke}
        strokeWidth={kind ? 2.5 : 1}
        strokeDasharray={kind === 'removed' ? '5 3' : undefined}
      />
      <rect x={left} y={top} width={6} height={node.h} rx={2} fill={node.subflow ? 'rgb(var(--purple-5))' : 'rgb(var(--arcoblue-5))'} />
      {node.inputs > 0 && <rect x={left - 5} y={node.y - 5} width={10} height={10} rx={3} fill="var(--color-fill-3)" stroke="var(--color-border-4)" />}
      {outs.map((y, i) => (
        <rect key={i} x={left + node.w - 5} y={y - 5} width={10} height={10} rx={3} fill="var(--color-fill-3)" stroke="var(--color-border-4)" />
      ))}
      <text x={left + 14} y={node.y - 2} fontSize={12} fill="var(--color-text-1)">
        {node.label}
      </text>
      <text x={left + 14} y={node.y + 11} fontSize={9} fill="var(--color-text-3)">
        {node.type}
      </text>
    </g>
  );
}

export function FlowCanvas({ tab, changes }: { tab: LaidTab; changes?: ReadonlyMap<string, FlowChangeKind> }): JSX.Element {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={tab.width}
      height={tab.height}
      viewBox={`0 0 ${tab.width} ${tab.height}`}
      role="img"
      aria-label={tab.label}
      data-testid={`flow-canvas-${tab.id}`}
      style={{ display: 'block', background: 'var(--color-fill-1)' }}
    >
      {tab.groups.map((g) => (
        <g key={g.id} data-group-id={g.id}>
          <rect x={g.x} y={g.y} width={g.w} height={g.h} rx={4} fill="var(--color-fill-2)" stroke="var(--color-border-3)" strokeDasharray="6 3" />
          {g.label && (
            <text x={g.x + 8} y={g.y + 14} fontSize={11} fill="var(--color-text-2)">
              {g.label}
            </text>
          )}
        </g>
      ))}
      {tab.wires.map((w, i) => (
        <path key={i} d={w.d} fill="none" stroke="var(--color-text-4)" strokeWidth={2} />
      ))}
      {tab.nodes.map((n) => (
        <Node key={n.id} node={n} kind={changes?.get(n.id)} />
      ))}
    </svg>
  );
}
