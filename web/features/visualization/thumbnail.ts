/**
 * The thumbnail saved with a configuration: its widgets drawn as coloured boxes on a small canvas
 * (PNG data URL), so the list shows each layout's shape without loading any layout.
 */
import { VIS_GRID_COLUMNS, type Layout, type WidgetType } from '../../../server/contract/visualization.ts';
import { rowsOf } from './layoutEdit.ts';

const WIDTH = 240;
const HEIGHT = 135;

const colors: Record<WidgetType, string> = {
  value: '#165dff',
  gauge: '#14c9c9',
  chart: '#722ed1',
  status: '#00b42a',
  switch: '#ff7d00',
  button: '#f53f3f',
  text: '#86909c',
  image: '#c9cdd4',
  alarms: '#f53f3f',
  video: '#4e5969',
};

/** Null where the browser cannot draw (tests without canvas). */
export function renderThumbnail(layout: Layout): string | undefined {
  const canvas = document.createElement('canvas');
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  const ctx = canvas.getContext('2d');
  if (!ctx) return undefined;
  ctx.fillStyle = '#f2f3f5';
  ctx.fillRect(0, 0, WIDTH, HEIGHT);
  const col = WIDTH / VIS_GRID_COLUMNS;
  const row = HEIGHT / Math.max(rowsOf(layout), 12);
  for (const w of layout.widgets) {
    ctx.fillStyle = colors[w.type];
    ctx.globalAlpha = 0.75;
    ctx.fillRect(w.x * col + 1, w.y * row + 1, w.w * col - 2, w.h * row - 2);
  }
  return canvas.toDataURL('image/png');
}
