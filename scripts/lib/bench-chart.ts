/**
 * Line charts of the soak's samples (scripts/lib/bench-soak.ts) as an SVG, and that SVG rendered to
 * a PNG by the system's Chromium (the one the e2e specs drive), so that text and axes come for free.
 */
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH } from '../../tests/helpers/browser.ts';

export interface Series {
  title: string;
  unit: string;
  /** [minutes since the start, value] */
  points: [number, number][];
  /** A dashed horizontal line, e.g. a budget or a fitted slope's start. */
  line?: { from: [number, number]; to: [number, number]; label: string };
}

const W = 900;
const PANEL_H = 220;
const M = { left: 70, right: 20, top: 30, bottom: 30 };

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

function panel(s: Series, top: number): string {
  const xs = s.points.map((p) => p[0]);
  const ys = s.points.map((p) => p[1]);
  const xMax = Math.max(1, ...xs);
  const yMin = Math.min(0, ...ys);
  const yMax = Math.max(1e-9, ...ys, ...(s.line ? [s.line.from[1], s.line.to[1]] : [])) * 1.1;
  const pw = W - M.left - M.right;
  const ph = PANEL_H - M.top - M.bottom;
  const x = (v: number): number => M.left + (v / xMax) * pw;
  const y = (v: number): number => top + M.top + ph - ((v - yMin) / (yMax - yMin)) * ph;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => yMin + f * (yMax - yMin));
  const xTicks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * xMax);
  const path = s.points.map((p, i) => `${i ? 'L' : 'M'}${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(' ');
  return [
    `<text x="${M.left}" y="${top + 18}" font-size="14" font-weight="bold">${esc(s.title)} (${esc(s.unit)})</text>`,
    ...ticks.map((t) => `<line x1="${M.left}" x2="${W - M.right}" y1="${y(t)}" y2="${y(t)}" stroke="#ddd"/><text x="${M.left - 6}" y="${y(t) + 4}" font-size="11" text-anchor="end">${t.toFixed(t >= 100 ? 0 : 1)}</text>`),
    ...xTicks.map((t) => `<text x="${x(t)}" y="${top + PANEL_H - 10}" font-size="11" text-anchor="middle">${t.toFixed(1)} min</text>`),
    `<path d="${path}" fill="none" stroke="#1f6feb" stroke-width="2"/>`,
    s.line
      ? `<line x1="${x(s.line.from[0])}" y1="${y(s.line.from[1])}" x2="${x(s.line.to[0])}" y2="${y(s.line.to[1])}" stroke="#d73a49" stroke-dasharray="6 4" stroke-width="1.5"/><text x="${W - M.right}" y="${top + 18}" font-size="12" fill="#d73a49" text-anchor="end">${esc(s.line.label)}</text>`
      : '',
  ].join('\n');
}

export function chartSvg(title: string, series: readonly Series[]): string {
  const h = 40 + series.length * PANEL_H;
  const panels = series.map((s, i) => panel(s, 40 + i * PANEL_H)).join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${h}" font-family="sans-serif"><rect width="100%" height="100%" fill="#fff"/><text x="${W / 2}" y="24" font-size="16" text-anchor="middle">${esc(title)}</text>${panels}</svg>`;
}

/** Renders `svg` to `file` (PNG) in headless Chromium. */
export async function writePng(svg: string, file: string): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: W, height: 100 } });
    await page.setContent(`<html><body style="margin:0">${svg}</body></html>`);
    const buf = await page.locator('svg').screenshot({ type: 'png' });
    writeFileSync(file, buf);
  } finally {
    await browser.close();
  }
}
