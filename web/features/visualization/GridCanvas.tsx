/**
 * The 24-column grid that places widgets, for the designer (drag to move, the corner handle to
 * resize, click to select; arrow keys move the selected widget) and for running (static). Our own
 * few pointer handlers instead of a grid library: moving and resizing on a fixed grid is all the
 * designer needs, and it adds no dependency to the page (docs/ARCHITECTURE.md, visualization).
 */
import { useRef, useState, type JSX, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { VIS_GRID_COLUMNS, type Layout, type Widget } from '../../../server/contract/visualization.ts';
import { rowsOf, updateWidget } from './layoutEdit.ts';

export const ROW_PX = 40;

interface Drag {
  id: string;
  mode: 'move' | 'resize';
  startX: number;
  startY: number;
  origin: Widget;
}

export interface GridCanvasProps {
  layout: Layout;
  renderWidget: (widget: Widget, heightPx: number) => ReactNode;
  /** Designer only: the layout after a move or resize ends. */
  onChange?: (layout: Layout) => void;
  selectedId?: string | null;
  onSelect?: (id: string | null) => void;
  testId: string;
}

export function GridCanvas(props: GridCanvasProps): JSX.Element {
  const { layout, onChange, onSelect } = props;
  const box = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  // The layout while dragging: shown at once, committed (one undo step) when the pointer lets go.
  const [preview, setPreview] = useState<Layout | null>(null);
  const shown = preview ?? layout;
  const editable = Boolean(onChange);

  const begin = (e: PointerEvent, widget: Widget, mode: Drag['mode']): void => {
    if (!editable || e.button !== 0) return;
    e.stopPropagation();
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    onSelect?.(widget.id);
    setDrag({ id: widget.id, mode, startX: e.clientX, startY: e.clientY, origin: widget });
  };

  const move = (e: PointerEvent): void => {
    if (!drag || !box.current) return;
    const colPx = box.current.clientWidth / VIS_GRID_COLUMNS;
    const dx = Math.round((e.clientX - drag.startX) / colPx);
    const dy = Math.round((e.clientY - drag.startY) / ROW_PX);
    const o = drag.origin;
    setPreview(updateWidget(layout, drag.id, (w) => (drag.mode === 'move' ? { ...w, x: o.x + dx, y: o.y + dy } : { ...w, w: o.w + dx, h: o.h + dy })));
  };

  const end = (): void => {
    if (preview) onChange?.(preview);
    setPreview(null);
    setDrag(null);
  };

  const nudge = (e: KeyboardEvent, widget: Widget): void => {
    const step: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const d = step[e.key];
    if (!d || !onChange) return;
    e.preventDefault();
    onChange(updateWidget(layout, widget.id, (w) => (e.shiftKey ? { ...w, w: w.w + d[0], h: w.h + d[1] } : { ...w, x: w.x + d[0], y: w.y + d[1] })));
  };

  return (
    <div
      ref={box}
      className={`ec-vis__grid${editable ? ' is-editable' : ''}`}
      style={{ gridTemplateColumns: `repeat(${VIS_GRID_COLUMNS}, 1fr)`, gridAutoRows: `${ROW_PX}px`, minHeight: (rowsOf(shown) + (editable ? 4 : 0)) * ROW_PX }}
      onPointerMove={move}
      onPointerUp={end}
      onPointerCancel={end}
      onClick={() => onSelect?.(null)}
      data-testid={props.testId}
    >
      {shown.widgets.map((w) => (
        <div
          key={w.id}
          className={`ec-vis__cell${props.selectedId === w.id ? ' is-selected' : ''}`}
          style={{ gridColumn: `${w.x + 1} / span ${w.w}`, gridRow: `${w.y + 1} / span ${w.h}` }}
          tabIndex={editable ? 0 : undefined}
          onPointerDown={(e) => begin(e, w, 'move')}
          onClick={(e) => {
            e.stopPropagation();
            onSelect?.(w.id);
          }}
          onKeyDown={(e) => nudge(e, w)}
          data-testid={`vis-cell-${w.id}`}
        >
          {props.renderWidget(w, w.h * ROW_PX)}
          {editable ? <span className="ec-vis__resize" onPointerDown={(e) => begin(e, w, 'resize')} data-testid={`vis-resize-${w.id}`} /> : null}
        </div>
      ))}
    </div>
  );
}
