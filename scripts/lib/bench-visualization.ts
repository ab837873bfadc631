/**
 * A wall of live widgets (issue 31's budgets): 30 devices publish over real MQTT at 1 msg/s each
 * (QoS 1), a configuration made through the API binds one widget to each (value cards, gauges, line
 * charts, status lights) and is shared; Debian Chromium opens its share page, as a wall display
 * does, and a Node websocket follows the same link as SharePage does (shareSocket.ts).
 *
 * - Frames: for FRAME_WINDOW_S the page records every requestAnimationFrame delta and every long
 *   task (PerformanceObserver, > 50 ms). A frame is dropped when its delta exceeds two frame budgets
 *   (33.4 ms at 60 Hz: at least one vsync passed without a new frame). The widgets' DOM changes
 *   are counted too, so a quiet page (no updates drawn) cannot pass for a smooth one.
 * - Share latency: each message carries its own `ts`, which the share socket's update repeats;
 *   latency = the update's arrival − the message's PUBACK, both in this process's clock. The
 *   gateway acknowledges once the message is committed and publishes the stored event right after,
 *   so an update can come before its PUBACK: such a latency is negative and kept as measured.
 */
import { chromium, type Page } from 'playwright-core';
import { connectAsync, type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { shareUrlOf, VIS_SHARE_CMD, visualizationRoutes, type Layout, type SharedLiveUpdate, type Widget, type WidgetType } from '../../server/contract/visualization.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/helpers/browser.ts';
import { startProvisionedGateway } from './bench-gateway.ts';
import { percentile, sleep } from './bench-measure.ts';
import type { RowSpec } from './bench-row.ts';
import { ensureDevices, ensureSimulatorProduct } from './simulator.ts';
import type { DeviceIdentity } from './simulated-device.ts';

const DEVICES = 30;
const FRAME_WINDOW_S = 30;
/**
 * The wall's first values arrive together and paint every widget from empty (the page's first
 * real paint, in software here): frames of that first second are counted apart from the 1 Hz
 * updates that follow.
 */
const FIRST_PAINT_MS = 1000;
/** A frame is dropped when its delta exceeds this many display frame intervals: a vsync passed without a new frame. */
const DROP_FACTOR = 1.5;
const LONG_TASK_MS = 50;
/** Widget type per device, by index: 12 value cards, 8 gauges, 4 line charts, 6 status lights. */
const MIX: readonly (readonly [WidgetType, number, string])[] = [
  ['value', 12, 'temperature'],
  ['gauge', 8, 'humidity'],
  ['chart', 4, 'temperature'],
  ['status', 6, 'switch'],
];
const COLUMNS_PER_ROW = 6;

function wall(devices: readonly DeviceIdentity[]): Layout {
  const types = MIX.flatMap(([type, n, key]) => Array.from({ length: n }, () => [type, key] as const));
  const widgets = devices.map((d, i): Widget => {
    const [type, key] = types[i]!;
    const props: Widget['props'] = { title: `${d.name} ${key}` };
    if (type === 'gauge') Object.assign(props, { min: 0, max: 100, unit: '%' });
    if (type === 'value' || type === 'chart') props.unit = '°C';
    return { id: `w${i}`, type, x: (i % COLUMNS_PER_ROW) * 4, y: Math.floor(i / COLUMNS_PER_ROW) * 4, w: 4, h: 4, binding: { deviceId: d.id, key }, props };
  });
  return { widgets };
}

interface Publishing {
  /** Publish time per `${deviceId}@${ts}`. */
  sent: Map<string, number>;
  /** PUBACK time per `${deviceId}@${ts}`. */
  acked: Map<string, number>;
  stop(): Promise<void>;
}

/** Every device publishes once a second at its own phase, each message with its own `ts`. */
async function publish(mqttUrl: string, devices: readonly DeviceIdentity[]): Promise<Publishing> {
  const clients: MqttClient[] = await Promise.all(devices.map((d) => connectAsync(mqttUrl, { username: d.token, clientId: `bench-vis-${d.id}` })));
  const sent = new Map<string, number>();
  const acked = new Map<string, number>();
  const now = (): number => performance.now() + performance.timeOrigin;
  const timers: NodeJS.Timeout[] = [];
  const pending = new Set<Promise<unknown>>();
  devices.forEach((d, i) => {
    let n = 0;
    const send = (): void => {
      n++;
      const ts = Date.now();
      const values = { temperature: Number((22 + 5 * Math.sin(n / 10 + i)).toFixed(2)), humidity: 40 + ((n * 7 + i) % 50), switch: (n + i) % 2 === 0 };
      sent.set(`${d.id}@${ts}`, now());
      const p = clients[i]!.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts, values }), { qos: 1 }).then(() => acked.set(`${d.id}@${ts}`, now()));
      pending.add(p);
      void p.finally(() => pending.delete(p));
    };
    timers.push(setTimeout(() => timers.push(setInterval(send, 1000)), (1000 * i) / devices.length));
  });
  return {
    sent,
    acked,
    async stop() {
      timers.forEach((t) => clearTimeout(t));
      await Promise.allSettled([...pending]);
      await Promise.all(clients.map((c) => c.endAsync()));
    },
  };
}

/** The share link's socket as SharePage opens it (no sign-in); arrival time per `${deviceId}@${ts}`. */
async function followShare(wsUrl: string, shareToken: string): Promise<{ arrived: Map<string, number>; close(): void }> {
  const socket = new WebSocket(wsUrl);
  const arrived = new Map<string, number>();
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  socket.on('message', (raw: Buffer) => {
    const now = performance.now() + performance.timeOrigin;
    const update = JSON.parse(raw.toString()) as SharedLiveUpdate;
    if (update.cmdUpdateType !== VIS_SHARE_CMD) return;
    for (const [deviceId, points] of Object.entries(update.data)) {
      for (const point of Object.values(points)) if (!arrived.has(`${deviceId}@${point.ts}`)) arrived.set(`${deviceId}@${point.ts}`, now);
    }
  });
  socket.send(JSON.stringify({ cmds: [{ type: VIS_SHARE_CMD, cmdId: 1, shareToken }] }));
  return { arrived, close: () => socket.close(1000) };
}

/**
 * Page-side code as text (tsx's keepNames helper `__name` does not exist in the page), installed
 * before the page loads: every requestAnimationFrame delta, every long task and every long
 * animation frame with its scripts (what ran, from where, for how long), and the moment the first
 * widget shows its first value. Only what follows that moment is counted: page load is not the wall.
 */
const RECORDER = `(() => {
  const rec = { frames: [], tasks: [], loafs: [], firstValueAt: null, mutations: 0 };
  window.__visRec = rec;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) rec.tasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const scripts = e.scripts.map((s) => [s.invoker, s.sourceFunctionName, s.sourceURL.replace(/^.*\\//, ''), Math.round(s.duration), Math.round(s.forcedStyleAndLayoutDuration)].join(' '));
        rec.loafs.push({ start: e.startTime, duration: e.duration, blocking: e.blockingDuration, render: e.renderStart ? e.startTime + e.duration - e.renderStart : 0, style: e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0, scripts });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {}
  let last = -1;
  let canvas = null;
  const tick = (t) => {
    if (last >= 0) rec.frames.push([t, t - last]);
    last = t;
    if (!canvas && (canvas = document.querySelector('[data-testid="vis-run-canvas"]'))) {
      new MutationObserver((list) => { if (rec.firstValueAt !== null) rec.mutations += list.length; }).observe(canvas, { subtree: true, childList: true, characterData: true, attributes: true });
    }
    if (rec.firstValueAt === null && canvas && [...canvas.querySelectorAll('[data-testid^="vis-value-"], [data-testid^="vis-status-"]')].some((e) => !e.textContent.includes('\u2014'))) rec.firstValueAt = t;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;

interface Loaf {
  start: number;
  duration: number;
  blocking: number;
  render: number;
  style: number;
  scripts: string[];
}

interface FrameRecord {
  /** Frame deltas in the window. */
  frames: number[];
  /** Dropped frames' deltas in the window's first FIRST_PAINT_MS, and after it. */
  firstPaintDrops: number[];
  updateDrops: number[];
  /** Long tasks' durations in the window. */
  tasks: number[];
  /** Long animation frames over the drop threshold in the window, for finding their cause. */
  loafs: Loaf[];
  mutations: number;
  /** The display's frame interval: the median delta. */
  intervalMs: number;
}

/** Every value card, gauge and status light of the wall shows a value: the page is live. */
async function waitLive(page: Page): Promise<void> {
  await page.waitForFunction(
    `(() => { const shown = [...document.querySelectorAll('[data-testid^="vis-value-"], [data-testid^="vis-status-"]')]; return shown.length === ${DEVICES - 4} && shown.every((e) => !e.textContent.includes('—')); })()`,
    undefined,
    { timeout: 60_000, polling: 500 },
  );
}

/** The window's figures: FRAME_WINDOW_S from the first widget's first value. */
async function recordWindow(page: Page): Promise<FrameRecord> {
  await page.waitForFunction('window.__visRec && window.__visRec.firstValueAt !== null', undefined, { timeout: 60_000, polling: 200 });
  await waitLive(page);
  await page.waitForFunction(`performance.now() > window.__visRec.firstValueAt + ${FRAME_WINDOW_S * 1000}`, undefined, { timeout: (FRAME_WINDOW_S + 60) * 1000, polling: 500 });
  const raw = (await page.evaluate('window.__visRec')) as { frames: [number, number][]; tasks: [number, number][]; loafs: Loaf[]; firstValueAt: number; mutations: number };
  const from = raw.firstValueAt;
  const to = from + FRAME_WINDOW_S * 1000;
  const inWindow = (t: number): boolean => t >= from && t <= to;
  const timed = raw.frames.filter(([t]) => inWindow(t));
  const frames = timed.map(([, d]) => d);
  const intervalMs = percentile(frames, 50);
  const drops = timed.filter(([, d]) => d > DROP_FACTOR * intervalMs).map(([t, d]) => `${d.toFixed(0)} ms at ${((t - from) / 1000).toFixed(1)} s`);
  if (drops.length) console.log(`bench: dropped frames (time from the first value): ${drops.join(', ')}`);
  const dropped = timed.filter(([, d]) => d > DROP_FACTOR * intervalMs);
  return {
    frames,
    firstPaintDrops: dropped.filter(([t]) => t < from + FIRST_PAINT_MS).map(([, d]) => d),
    updateDrops: dropped.filter(([t]) => t >= from + FIRST_PAINT_MS).map(([, d]) => d),
    tasks: raw.tasks.filter(([t]) => inWindow(t)).map(([, d]) => d),
    loafs: raw.loafs.filter((l) => inWindow(l.start) && l.duration > DROP_FACTOR * intervalMs).map((l) => ({ ...l, start: l.start - from })),
    mutations: raw.mutations,
    intervalMs,
  };
}

/** The long animation frames' scripts, longest first, as one line each: what to look at when frames drop. */
function loafText(loafs: readonly Loaf[]): string {
  return [...loafs]
    .sort((x, y) => y.duration - x.duration)
    .slice(0, 5)
    .map((l) => `${l.duration.toFixed(0)} ms at ${(l.start / 1000).toFixed(1)} s (blocking ${l.blocking.toFixed(0)}, render ${l.render.toFixed(0)}, style+layout ${l.style.toFixed(0)}): ${l.scripts.join(' | ') || 'no script'}`)
    .join(' ;; ');
}

function frameRows(rec: FrameRecord, note: string): RowSpec[] {
  const dropped = rec.updateDrops.length;
  const missedVsyncs = rec.frames.reduce((n, d) => n + Math.max(0, Math.round(d / rec.intervalMs) - 1), 0);
  const longest = rec.tasks.length ? Math.max(...rec.tasks) : 0;
  const p99 = percentile(rec.frames, 99);
  const detail = { frames: rec.frames.length, intervalMs: rec.intervalMs, droppedFrames: dropped, missedVsyncs, longTasks: rec.tasks.length, longestTaskMs: longest, frameP50Ms: percentile(rec.frames, 50), frameP99Ms: p99, domChanges: rec.mutations, longFrames: loafText(rec.loafs) };
  const shared = `${rec.frames.length} frames, ${rec.mutations} DOM changes in the widgets (${(rec.mutations / FRAME_WINDOW_S).toFixed(0)}/s); counted from the first widget's first value (page load excluded); ${note}`;
  return [
    {
      id: 'visWallDroppedFrames',
      figure: `30 live widgets on 30 devices at 1 Hz in Chromium: dropped frames (delta > ${DROP_FACTOR} × the ${rec.intervalMs.toFixed(1)} ms frame interval) while the updates come, ${FRAME_WINDOW_S - FIRST_PAINT_MS / 1000} s`,
      value: dropped,
      unit: 'count',
      budget: 0,
      note: `from ${FIRST_PAINT_MS / 1000} s after the first widget's first value on; ${((100 * dropped) / Math.max(rec.frames.length, 1)).toFixed(2)} % of frames${dropped ? ` (${rec.updateDrops.map((d) => d.toFixed(0)).join(', ')} ms)` : ''}, ${missedVsyncs} vsyncs missed in the whole window; ${shared}`,
      detail,
    },
    {
      id: 'visWallFirstPaintDroppedFrames',
      budget: null,
      figure: `30 live widgets: dropped frames while the wall's first values paint (the first ${FIRST_PAINT_MS / 1000} s)`,
      value: rec.firstPaintDrops.length,
      unit: 'count',
      note: `every widget drawn from empty at once, as when the page loads${rec.firstPaintDrops.length ? `: ${rec.firstPaintDrops.map((d) => d.toFixed(0)).join(', ')} ms` : ''}; the long frames' causes: ${loafText(rec.loafs) || 'none over the threshold'}`,
    },
    { id: 'visWallFrameP99Ms', figure: '30 live widgets: frame time p99 (requestAnimationFrame delta)', value: p99, unit: 'ms', budget: DROP_FACTOR * rec.intervalMs, note: `p50 ${percentile(rec.frames, 50).toFixed(1)} ms, max ${Math.max(...rec.frames).toFixed(0)} ms`, detail },
    { id: 'visWallLongTasks', figure: `30 live widgets: long tasks (> ${LONG_TASK_MS} ms) on the main thread over ${FRAME_WINDOW_S} s`, value: rec.tasks.length, unit: 'count', budget: 0, note: `longest ${longest.toFixed(0)} ms (PerformanceObserver 'longtask'; 0: none)`, detail },
  ];
}

function latencyRow(publishing: Pick<Publishing, 'sent' | 'acked'>, arrived: ReadonlyMap<string, number>, note: string): RowSpec {
  const latencies: number[] = [];
  const fromPublish: number[] = [];
  let unseen = 0;
  for (const [key, at] of publishing.acked) {
    const seen = arrived.get(key);
    if (seen === undefined) unseen++;
    else {
      latencies.push(seen - at);
      fromPublish.push(seen - publishing.sent.get(key)!);
    }
  }
  if (!latencies.length) throw new Error('bench: no share update matched a PUBACK');
  const p = (q: number): number => percentile(latencies, q);
  const early = latencies.filter((l) => l < 0).length;
  return {
    id: 'visShareLatencyP95Ms',
    figure: "share link's live update after the PUBACK, p95 (30 devices at 1 Hz, QoS 1)",
    value: p(95),
    unit: 'ms',
    budget: 250,
    note: `p50 ${p(50).toFixed(1)} ms, p99 ${p(99).toFixed(1)} ms over ${latencies.length} messages (${early} arrived before their PUBACK: negative); from the publish: p50 ${percentile(fromPublish, 50).toFixed(1)} ms, p95 ${percentile(fromPublish, 95).toFixed(1)} ms, p99 ${percentile(fromPublish, 99).toFixed(1)} ms; ${unseen} acknowledged messages not seen on the socket (the last second's); ${note}`,
    detail: { p50Ms: p(50), p95Ms: p(95), p99Ms: p(99), publishP95Ms: percentile(fromPublish, 95), messages: latencies.length, beforePuback: early, unseen },
  };
}

export async function visualizationRows(binary: string): Promise<RowSpec[]> {
  const gw = await startProvisionedGateway(binary);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  let publishing: Publishing | null = null;
  try {
    const product = await ensureSimulatorProduct(gw.http, 'Bench-wall');
    const devices = await ensureDevices(gw.http, product.id, DEVICES);
    const vis = await gw.http.call(visualizationRoutes.create, { body: { name: 'Bench wall', platform: 'pc', layout: wall(devices) } });
    const link = await gw.http.call(visualizationRoutes.share, { params: { id: vis.id }, body: {} });
    const share = await followShare(gw.wsUrl, link.shareToken);
    publishing = await publish(gw.mqttUrl, devices);
    // The console's CSP forbids eval, which Playwright's string predicates need; it changes nothing measured.
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 }, locale: 'zh-CN', bypassCSP: true });
    page.on('pageerror', (err) => console.error(`bench: page error ${err.message}`));
    await page.addInitScript(RECORDER);
    await page.goto(`${gw.bin.url}${shareUrlOf(link.shareToken)}`);
    const rec = await recordWindow(page);
    if (rec.loafs.length) console.log(`bench: long animation frames: ${loafText(rec.loafs)}`);
    const { sent, acked } = publishing;
    await publishing.stop();
    publishing = null;
    // The last acknowledged messages' updates are on their way.
    await sleep(1000);
    share.close();
    const how = '1920×1080 share page, Debian Chromium headless (software rendering), the Node share socket and the 30 MQTT clients in the bench process';
    return [...frameRows(rec, how), latencyRow({ sent, acked }, share.arrived, 'the same run, Chromium showing the wall meanwhile')];
  } finally {
    await publishing?.stop();
    await browser.close();
    await gw.stop();
  }
}
