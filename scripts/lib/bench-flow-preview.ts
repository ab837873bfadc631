/**
 * The flow preview in Chromium (issue 29: 500 nodes drawn in ≤ 200 ms): the console's own
 * flowLayout + FlowCanvas (web/features/node-red/), bundled the way the console is (esbuild,
 * preact/compat), draw one tab of 500 nodes wired in chains of ten, inside 25 groups. Measured in
 * the page's clock from the flows array in hand to the first task after the next animation frame
 * (layout, render, style, paint), five times after one warm-up, median reported. No gateway is
 * needed: the preview is pure over a flows array, so this times the drawing alone.
 */
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/helpers/browser.ts';
import { median } from './bench-measure.ts';
import type { RowSpec } from './bench-row.ts';

const NODES = 500;
const RUNS = 5;

/** Page-side code as text (see bench-history-chart.ts: tsx's keepNames helper would not exist in the page). */
const entry = `
import { render } from 'preact';
import { jsx } from 'preact/jsx-runtime';
import { FlowCanvas } from './web/features/node-red/FlowCanvas.tsx';
import { layoutFlows } from './web/features/node-red/flowLayout.ts';

function flows(n) {
  const out = [{ id: 'tab', type: 'tab', label: 'bench' }];
  for (let g = 0; g < n / 20; g++) {
    out.push({ id: 'g' + g, type: 'group', z: 'tab', name: 'group ' + g, x: 20 + (g % 5) * 1400, y: 20 + Math.floor(g / 5) * 500, w: 1360, h: 460 });
  }
  for (let i = 0; i < n; i++) {
    const next = i % 10 === 9 ? [] : ['n' + (i + 1)];
    const type = i % 10 === 0 ? 'inject' : i % 10 === 9 ? 'debug' : i % 3 ? 'function' : 'change';
    out.push({ id: 'n' + i, type, z: 'tab', name: 'node ' + i, x: 120 + (i % 10) * 130 + Math.floor(i / 100) * 1400, y: 60 + Math.floor((i % 100) / 10) * 45, wires: [next] });
  }
  return out;
}

window.__drawFlows = () => new Promise((resolve) => {
  const root = document.getElementById('root');
  render(null, root);
  const data = flows(${NODES});
  const start = performance.now();
  const [tab] = layoutFlows(data);
  render(jsx(FlowCanvas, { tab }), root);
  requestAnimationFrame(() => setTimeout(() => resolve({ ms: performance.now() - start, nodes: root.querySelectorAll('[data-node-id]').length })));
});
`;

async function bundle(root: string): Promise<string> {
  const out = await build({
    stdin: { contents: entry, resolveDir: root, loader: 'js' },
    bundle: true,
    write: false,
    format: 'iife',
    minify: true,
    jsx: 'automatic',
    alias: { react: 'preact/compat', 'react/jsx-runtime': 'preact/jsx-runtime' },
  });
  return out.outputFiles[0]!.text;
}

export async function flowPreviewRows(root: string): Promise<RowSpec[]> {
  const script = await bundle(root);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.setContent('<html><body style="margin:0"><div id="root"></div></body></html>');
    await page.addScriptTag({ content: script });
    const draw = (): Promise<{ ms: number; nodes: number }> => page.evaluate('window.__drawFlows()') as Promise<{ ms: number; nodes: number }>;
    await draw();
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await draw();
      if (run.nodes !== NODES) throw new Error(`flow preview bench: drew ${run.nodes} nodes, not ${NODES}`);
      runs.push(run.ms);
    }
    const value = Number(median(runs).toFixed(1));
    return [
      {
        id: 'flowPreview500Ms',
        figure: `flow preview: ${NODES} nodes laid out and drawn (Chromium)`,
        value,
        unit: 'ms',
        budget: 200,
        note: `median of ${RUNS} after a warm-up; flows array in hand → first task after the next frame (layout, preact render, style, paint); runs ${runs.map((r) => r.toFixed(0)).join(', ')} ms`,
        detail: { min: Math.min(...runs), max: Math.max(...runs) },
      },
    ];
  } finally {
    await browser.close();
  }
}
