/**
 * Pure edits of a layout on the grid (the designer's moves, resizes, adds and removals) and the
 * undo/redo history over whole layouts. Every edit keeps widgets inside the grid's columns.
 */
import { VIS_GRID_COLUMNS, VIS_GRID_ROWS_MAX, type Layout, type Widget, type WidgetType } from '../../../server/contract/visualization.ts';

/** How many steps undo goes back. */
const HISTORY_MAX = 50;

export interface LayoutHistory {
  past: Layout[];
  present: Layout;
  future: Layout[];
}

export function historyOf(layout: Layout): LayoutHistory {
  return { past: [], present: layout, future: [] };
}

/** A new present; the redo steps are dropped, as in every editor. */
export function pushLayout(h: LayoutHistory, next: Layout): LayoutHistory {
  if (next === h.present) return h;
  return { past: [...h.past, h.present].slice(-HISTORY_MAX), present: next, future: [] };
}

export function undo(h: LayoutHistory): LayoutHistory {
  const previous = h.past[h.past.length - 1];
  return previous ? { past: h.past.slice(0, -1), present: previous, future: [h.present, ...h.future] } : h;
}

export function redo(h: LayoutHistory): LayoutHistory {
  const next = h.future[0];
  return next ? { past: [...h.past, h.present], present: next, future: h.future.slice(1) } : h;
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(Math.max(Math.round(n), min), max);
}

/** The widget's place kept inside the grid: width first, then x within what the width leaves. */
export function placed(w: Widget): Widget {
  const width = clamp(w.w, 1, VIS_GRID_COLUMNS);
  return { ...w, w: width, h: clamp(w.h, 1, 60), x: clamp(w.x, 0, VIS_GRID_COLUMNS - width), y: clamp(w.y, 0, VIS_GRID_ROWS_MAX) };
}

/** The layout with widget `id` changed; the same layout when `change` returns the widget unchanged (no undo step, not dirty). */
export function updateWidget(layout: Layout, id: string, change: (w: Widget) => Widget): Layout {
  let changed = false;
  const widgets = layout.widgets.map((w) => {
    if (w.id !== id) return w;
    const next = change(w);
    if (next === w) return w;
    changed = true;
    return placed(next);
  });
  return changed ? { widgets } : layout;
}

/** An edit of the history's present widget `id`, applied to whatever the present is when it runs. */
export function editWidget(h: LayoutHistory, id: string, change: (w: Widget) => Widget): LayoutHistory {
  return pushLayout(h, updateWidget(h.present, id, change));
}

/**
 * The unit of the thing model's property when the widget has none yet: whenever the model arrives,
 * before or after the key was typed. The same widget when there is nothing to add.
 */
export function withModelUnit(w: Widget, key: string, unit: string | undefined): Widget {
  if (!unit || w.props.unit || w.binding?.key !== key) return w;
  return { ...w, props: { ...w.props, unit } };
}

export function removeWidget(layout: Layout, id: string): Layout {
  return { widgets: layout.widgets.filter((w) => w.id !== id) };
}

const defaultSize: Record<WidgetType, { w: number; h: number }> = {
  value: { w: 4, h: 3 },
  gauge: { w: 4, h: 4 },
  chart: { w: 8, h: 5 },
  status: { w: 3, h: 2 },
  switch: { w: 3, h: 2 },
  button: { w: 3, h: 2 },
  text: { w: 6, h: 2 },
  image: { w: 4, h: 4 },
  alarms: { w: 8, h: 5 },
  video: { w: 8, h: 5 },
};

/** A new widget of `type` below everything else, with the next free id. */
export function addWidget(layout: Layout, type: WidgetType): { layout: Layout; id: string } {
  const taken = new Set(layout.widgets.map((w) => w.id));
  let n = layout.widgets.length + 1;
  while (taken.has(`w${n}`)) n += 1;
  const id = `w${n}`;
  const bottom = layout.widgets.reduce((max, w) => Math.max(max, w.y + w.h), 0);
  const widget = placed({ id, type, x: 0, y: bottom, ...defaultSize[type], props: {} });
  return { layout: { widgets: [...layout.widgets, widget] }, id };
}

/** How many grid rows the layout fills (the canvas's height). */
export function rowsOf(layout: Layout): number {
  return layout.widgets.reduce((max, w) => Math.max(max, w.y + w.h), 0);
}
