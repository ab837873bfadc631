/**
 * The history chart in Chromium (DESIGN.md section 7: 50,000 history points drawn ≤ 100 ms): a
 * device of the simulator's product stores 50,000 temperature readings over MQTT (arrays of 1,000
 * `{ts, values}` with explicit, 60 ms apart timestamps in the last hour), the console (Debian
 * Chromium through playwright-core, as the e2e specs drive it) opens the device's history drawer
 * from the property's card, asks for 50,000 records and draws them; five times, median reported.
 *
 * Where each phase starts and ends, all in the page's clock (performance.now):
 * - fetch: the request's resource timing, `startTime` → `responseEnd` (the server's query and the
 *   transfer of ~2 MB of JSON);
 * - parse: `JSON.parse` of that body, timed by a wrapper the bench installs before the page loads
 *   (it times only texts over 1 MB: the history answer);
 * - prepare: parse end → the chart's `ec-chart:set-data` mark (React state, the drawer's series
 *   mapping, `alignSeries` into uPlot's columns);
 * - draw: `ec-chart:set-data` → `ec-chart:drawn` (uPlot's draw hook: paths and canvas strokes);
 * - paint: `ec-chart:drawn` → the first task after the next animation frame (the frame that shows it).
 * The budgeted figure is what Chromium does once the last byte has arrived: `responseEnd` → paint,
 * so it includes reading the body as text (read: last byte → parse start), parse, prepare, draw and paint. The chart's marks exist
 * only when the page sets `window.__ecChartMarks` (web/components/TimeSeriesChart.tsx).
 */
import { chromium, type Page } from 'playwright-core';
import { connectAsync } from 'mqtt';
import { deviceDetailPath } from '../../server/contract/console-paths.ts';
import { HISTORY_LIMIT_MAX, telemetryRoutes } from '../../server/contract/telemetry.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/helpers/browser.ts';
import { BENCH_ADMIN, startProvisionedGateway } from './bench-gateway.ts';
import { median } from './bench-measure.ts';
import type { RowSpec } from './bench-row.ts';
import { ensureDevices, ensureSimulatorProduct } from './simulator.ts';

const POINTS = 50_000;
const PER_MESSAGE = 1_000;
const STEP_MS = 60;
const RUNS = 5;
const KEY = 'temperature';

interface Phases {
  fetch: number;
  /** Last byte → JSON.parse starts: the body read as text. */
  read: number;
  parse: number;
  prepare: number;
  draw: number;
  paint: number;
  client: number;
  bytes: number;
}

/** 50,000 readings of one key with explicit timestamps, ending a minute ago. */
async function storeHistory(mqttUrl: string, token: string): Promise<void> {
  const client = await connectAsync(mqttUrl, { username: token, clientId: 'bench-chart' });
  const first = Date.now() - 60_000 - POINTS * STEP_MS;
  try {
    for (let from = 0; from < POINTS; from += PER_MESSAGE) {
      const batch = [];
      for (let i = from; i < from + PER_MESSAGE; i++) {
        batch.push({ ts: first + i * STEP_MS, values: { [KEY]: Number((20 + 10 * Math.sin(i / 500) + (i % 7) / 10).toFixed(1)) } });
      }
      await client.publishAsync('v1/devices/me/telemetry', JSON.stringify(batch), { qos: 1 });
    }
  } finally {
    await client.endAsync();
  }
}

/**
 * Page-side code is kept as text: tsx compiles this file with esbuild's keepNames, whose `__name`
 * helper would not exist in the page if functions were passed to it.
 *
 * Before any page script: the chart's marks on, and JSON.parse of large texts timed.
 */
const instrument = `
window.__ecChartMarks = true;
window.__benchParses = [];
const parse = JSON.parse;
JSON.parse = function (text, reviver) {
  if (typeof text !== 'string' || text.length < 1000000) return parse.call(JSON, text, reviver);
  const start = performance.now();
  const value = parse.call(JSON, text, reviver);
  window.__benchParses.push({ start, end: performance.now(), length: text.length });
  return value;
};`;

const reset = `
performance.clearMarks();
performance.clearResourceTimings();
window.__benchParses.length = 0;`;

/**
 * Waits (one check per frame) until the chart was handed new data (marks are cleared before each
 * query), holds every point and uPlot drew them; then reads the phases.
 */
const phases = `(async () => {
  const points = ${POINTS};
  const drawnAfter = () => {
    const setData = performance.getEntriesByName('ec-chart:set-data').at(-1);
    return setData ? performance.getEntriesByName('ec-chart:drawn').find((m) => m.startTime >= setData.startTime) : undefined;
  };
  for (;;) {
    const holds = Number(document.querySelector('[data-testid="history-chart"]')?.getAttribute('data-points')) === points;
    if (holds && drawnAfter()) break;
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  const drawn = drawnAfter();
  // The frame that shows the drawing: the first task after the next animation frame.
  const painted = await new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)));
  const request = performance.getEntriesByType('resource').find(
    (r) => r.name.includes('/values/timeseries') && r.name.includes('keys=${KEY}') && r.name.includes('limit=' + points),
  );
  const parse = window.__benchParses.at(-1);
  const setData = performance.getEntriesByName('ec-chart:set-data').at(-1);
  if (!request || !parse) throw new Error('bench: no ' + (request ? 'parse' : 'request') + ' of the history answer was seen');
  return {
    fetch: request.responseEnd - request.startTime,
    read: parse.start - request.responseEnd,
    parse: parse.end - parse.start,
    prepare: setData.startTime - parse.end,
    draw: drawn.startTime - setData.startTime,
    paint: painted - drawn.startTime,
    client: painted - request.responseEnd,
    bytes: request.encodedBodySize,
  };
})()`;

/** One query of 50,000 records, from the click to the painted frame. */
async function measureOnce(page: Page): Promise<Phases> {
  await page.evaluate(reset);
  await page.getByTestId('history-query').click();
  return (await page.evaluate(phases)) as Phases;
}

export async function chartRows(binary: string): Promise<RowSpec[]> {
  const gw = await startProvisionedGateway(binary);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  try {
    const product = await ensureSimulatorProduct(gw.http, 'Bench-chart');
    const [device] = await ensureDevices(gw.http, product.id, 1);
    await storeHistory(gw.mqttUrl, device!.token);
    const stored = await gw.http.call(telemetryRoutes.timeseries, {
      params: { id: device!.id },
      query: { keys: KEY, startTs: 0, endTs: Date.now(), limit: HISTORY_LIMIT_MAX, agg: 'NONE' },
    });
    if (stored[KEY]?.length !== POINTS) throw new Error(`bench: ${stored[KEY]?.length ?? 0} of ${POINTS} readings were stored`);

    // The console's CSP forbids eval, which Playwright's string predicates need; it changes nothing measured.
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', bypassCSP: true });
    page.on('crash', () => console.error('bench: the page crashed'));
    page.on('pageerror', (err) => console.error(`bench: page error ${err.message}`));
    await page.addInitScript({ content: instrument });
    await page.goto(`${gw.bin.url}/login`);
    await page.getByTestId('login-username').fill(BENCH_ADMIN.username);
    await page.locator('[data-testid="login-password"] input, input[data-testid="login-password"]').first().fill(BENCH_ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('main-layout').waitFor();
    await page.goto(`${gw.bin.url}${deviceDetailPath(device!.id, 'thingModel')}`);
    // The card's history opens with the UI's default limit and queries at once: this loads uPlot
    // and warms the page; the measured queries ask for all 50,000.
    await page.getByTestId(`data-history-${KEY}`).click();
    await page.waitForFunction(`Number(document.querySelector('[data-testid="history-chart"]')?.getAttribute('data-points')) > 0`);
    await page.locator('[data-testid="history-limit"] input, input[data-testid="history-limit"]').first().fill(String(POINTS));
    await measureOnce(page);
    const runs: Phases[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await measureOnce(page));

    const med = (k: keyof Phases): number => median(runs.map((r) => r[k]));
    const ms = (k: keyof Phases): string => `${k} ${med(k).toFixed(0)} ms`;
    return [
      {
        id: 'historyChartDrawMs',
        figure: '50,000 history points drawn in Chromium (last byte → painted)',
        value: med('client'),
        unit: 'ms',
        budget: 100,
        note: `median of ${RUNS} after a warm-up, 1440×900, Debian Chromium headless (software rendering); ${ms('read')} (body as text), ${ms('parse')}, ${ms('prepare')} (state, series, alignSeries), ${ms('draw')} (uPlot), ${ms('paint')}; runs ${runs.map((r) => r.client.toFixed(0)).join(', ')} ms`,
        detail: { readMs: med('read'), parseMs: med('parse'), prepareMs: med('prepare'), drawMs: med('draw'), paintMs: med('paint'), fetchMs: med('fetch') },
      },
      {
        id: 'historyChartFetchMs',
        figure: '50,000 history points fetched by the console (request → last byte)',
        value: med('fetch'),
        unit: 'ms',
        note: `the same queries' resource timing; ${(med('bytes') / 1024 / 1024).toFixed(2)} MB of JSON on the wire (gzip when the server compresses)`,
      },
    ];
  } finally {
    await browser.close();
    await gw.stop();
  }
}
