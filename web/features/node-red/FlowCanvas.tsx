/**
 * One tab of a flow picture as SVG (geometry from flowLayout.ts): groups as boxes behind, wires,
 * then the nodes with their ports, labels and types. With a diff, added, changed and removed
 * nodes carry their kind's colour (removed ones dashed). Depends on nothing but React so the
 * bench (scripts/lib/bench-flow-preview.ts) draws exactly this.
 *
 * Drawn for 500 nodes in ≤ 200 ms (issue 29): colours come from one <style> by class rather than
 * attributes on every element, all wires are one path and all ports another, so the browser styles
 * and paints a few thousand fewer elements than one element per wire and port would make.
 */
import type { JSX } from 'react';
import type { FlowChangeKind } from './flowDiff.ts';
import type { LaidNode, LaidTab } from './flowLayout.ts';

const PORT = 10;

/** Scoped by the canvas's class; Arco's theme variables make it follow light and dark. */
const CSS = `
.ec-flow{display:block;background:var(--color-fill-1)}
.ec-flow .g{fill:var(--color-fill-2);stroke:var(--color-border-3);stroke-dasharray:6 3}
.ec-flow .gl{font-size:11px;fill:var(--color-text-2)}
.ec-flow .w{fill:none;stroke:var(--color-text-4);stroke-width:2}
.ec-flow .b{fill:var(--color-bg-2);stroke:var(--color-border-4)}
.ec-flow .a{fill:rgb(var(--arcoblue-5))}
.ec-flow .sf .a{fill:rgb(var(--purple-5))}
.ec-flow .p{fill:var(--color-fill-3);stroke:var(--color-border-4)}
.ec-flow .l{font-size:12px;fill:var(--color-text-1)}
.ec-flow .t{font-size:9px;fill:var(--color-text-3)}
.ec-flow [data-change] .b{stroke-width:2.5}
.ec-flow [data-change=added] .b{stroke:rgb(var(--green-6))}
.ec-flow [data-change=changed] .b{stroke:rgb(var(--orange-6))}
.ec-flow [data-change=removed] .b{stroke:rgb(var(--red-6));stroke-dasharray:5 3}
`;

function portsPath(nodes: readonly LaidNode[]): string {
  const box = (x: number, y: number): string => `M${x - PORT / 2},${y - PORT / 2}h${PORT}v${PORT}h${-PORT}z`;
  const parts: string[] = [];
  for (const n of nodes) {
    const left = n.x - n.w / 2;
    const top = n.y - n.h / 2;
    if (n.inputs > 0) parts.push(box(left, n.y));
    for (let i = 0; i < n.outputs; i++) parts.push(box(left + n.w, n.outputs <= 1 ? n.y : top + 15 + i * 13));
  }
  return parts.join('');
}

function Node({ node, kind }: { node: LaidNode; kind: FlowChangeKind | undefined }): JSX.Element {
  const left = node.x - node.w / 2;
  const top = node.y - node.h / 2;
  return (
    <g data-node-id={node.id} data-change={kind} className={node.subflow ? 'sf' : undefined}>
      <title>{`${node.label} (${node.type})`}</title>
      <rect className="b" x={left} y={top} width={node.w} height={node.h} rx={5} />
      <rect className="a" x={left} y={top} width={6} height={node.h} rx={2} />
      <text className="l" x={left + 14} y={node.y - 2}>
        {node.label}
      </text>
      <text className="t" x={left + 14} y={node.y + 11}>
        {node.type}
      </text>
    </g>
  );
}

export function FlowCanvas({ tab, changes }: { tab: LaidTab; changes?: ReadonlyMap<string, FlowChangeKind> }): JSX.Element {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      className="ec-flow"
      width={tab.width}
      height={tab.height}
      viewBox={`0 0 ${tab.width} ${tab.height}`}
      role="img"
      aria-label={tab.label}
      data-testid={`flow-canvas-${tab.id}`}
    >
      <style>{CSS}</style>
      {tab.groups.map((g) => (
        <g key={g.id} data-group-id={g.id}>
          <rect className="g" x={g.x} y={g.y} width={g.w} height={g.h} rx={4} />
          {g.label && (
            <text className="gl" x={g.x + 8} y={g.y + 14}>
              {g.label}
            </text>
          )}
        </g>
      ))}
      <path className="w" d={tab.wires.map((w) => w.d).join(' ')} />
      {tab.nodes.map((n) => (
        <Node key={n.id} node={n} kind={changes?.get(n.id)} />
      ))}
      <path className="p" d={portsPath(tab.nodes)} />
    </svg>
  );
}
