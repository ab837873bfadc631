/**
 * `npm run bench`: measures the project's performance figures (size, start-up, memory, device
 * management, telemetry) on the built artefacts (the x64 binary over real sockets on loopback),
 * compares each with its budget, prints a table and writes bench/results.json and
 * docs/BENCHMARKS.md. Builds first when dist/ lacks the console metafile or the x64 binary
 * (`--build` forces it).
 *
 * `--only <group,…>` runs some groups (sizes, coldstart, idle, devices, telemetry, rules, connections, history,
 * chart, scale, modbus, cloud, flash, video, report, flowpreview, nodered, visualization); the other rows keep the figures of the run that measured them, with its date and load.
 * `--video-minutes N` holds the video group's stream N minutes (default 1; the issue's budget holds 30).
 * `--soak MINUTES` runs the soak alone (scripts/lib/bench-soak.ts) and draws docs/bench/soak.png.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Metafile } from 'esbuild';
import { startBinary } from '../tests/helpers/binary.ts';
import { startAfterReboot } from './lib/bench-start.ts';
import { binaryPath, overBase, strippedBasePath, type Arch } from './binary.ts';
import { root, webEntry, webMetaFile } from './build.ts';
import { connectionRows } from './lib/bench-connections.ts';
import { deviceRows } from './lib/bench-devices.ts';
import { cloudRows } from './lib/bench-cloud.ts';
import { chartRows } from './lib/bench-history-chart.ts';
import { historyRows } from './lib/bench-history.ts';
import { reportRows } from './lib/bench-report.ts';
import { modbusRows } from './lib/bench-modbus.ts';
import { benchLicenceKeys, provision } from './lib/bench-gateway.ts';
import { cpuMs, KB, mb, MB, median, medianRss, rssOf, rssRange, sleep, type Rss } from './lib/bench-measure.ts';
import { fmt, fmtBudget, load1m, measured, type Row, type RowSpec } from './lib/bench-row.ts';
import { ruleRows } from './lib/bench-rules.ts';
import { durationRows } from './lib/bench-rules-duration.ts';
import { flashRows } from './lib/bench-flash.ts';
import { flowPreviewRows } from './lib/bench-flow-preview.ts';
import { storedSceneRows } from './lib/bench-rules-stored.ts';
import { scaleRows } from './lib/bench-scale.ts';
import { soakMinutes, soakRows } from './lib/bench-soak.ts';
import { videoFirstFrameRows } from './lib/bench-video-frame.ts';
import { videoMinutes, videoRows } from './lib/bench-video.ts';
import { visualizationRows } from './lib/bench-visualization.ts';
import { telemetryRows } from './lib/bench-telemetry.ts';
import { nodeRedRows } from './lib/bench-node-red.ts';

/** The route table lazy-loads the sign-in page from here (web/routes.tsx). */
const loginPage = 'web/features/auth/LoginPage.tsx';
/** Namespaces the login page needs: preloaded by web/i18n/i18n.ts, plus its own. */
const loginNamespaces = ['common', 'http', 'auth'];
const coldStartRuns = 10;
const resultsFile = join(root, 'bench/results.json');
const docFile = join(root, 'docs/BENCHMARKS.md');

const groups = ['sizes', 'coldstart', 'idle', 'devices', 'telemetry', 'rules', 'connections', 'history', 'chart', 'scale', 'modbus', 'cloud', 'flash', 'video', 'report', 'flowpreview', 'nodered', 'visualization', 'soak'] as const;
type Group = (typeof groups)[number];
/** Groups that measure the console's code alone, with no built binary (a run of only these builds nothing). */
const needNoBinary: ReadonlySet<Group> = new Set(['flowpreview', 'nodered']);

/** Rows of placeholders earlier runs wrote before these figures were measured. */
const retiredIds = new Set(['telemetryThroughput', 'deviceListLatency']);

function selectedGroups(argv: readonly string[]): Set<Group> {
  // The soak runs for as long as it is told, so only when it is asked for, and alone.
  if (soakMinutes(argv) !== null) return new Set(['soak']);
  const i = argv.findIndex((a) => a === '--only' || a.startsWith('--only='));
  if (i < 0) return new Set(groups.filter((g) => g !== 'soak'));
  const value = argv[i]!.includes('=') ? argv[i]!.split('=')[1]! : (argv[i + 1] ?? '');
  const names = value.split(',').map((n) => n.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(groups as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length) {
    throw new Error(`bench: --only takes a comma-separated list of ${groups.join(', ')}${unknown.length ? ` (not: ${unknown.join(', ')})` : ''}`);
  }
  return new Set(names as Group[]);
}

function ensureBuilt(): void {
  const force = process.argv.includes('--build');
  const env = { ...process.env, PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH ?? ''}` };
  if (force || !existsSync(webMetaFile)) execFileSync('tsx', ['scripts/build.ts'], { cwd: root, env, stdio: 'inherit' });
  if (force || !existsSync(binaryPath('x64'))) execFileSync('tsx', ['scripts/binary.ts', '--x64-only'], { cwd: root, env, stdio: 'inherit' });
}

/**
 * A private copy of the x64 binary: others rebuild dist/ on this machine, and every figure of a run
 * must come from the same binary.
 */
function snapshotBinary(dir: string): string {
  const copy = join(dir, 'edge-console-linux-x64');
  copyFileSync(binaryPath('x64'), copy);
  chmodSync(copy, 0o755);
  return copy;
}

// ---------------------------------------------------------------- console bundle sizes

function gzipBytes(out: string): number {
  const file = join(root, out);
  const gz = `${file}.gz`;
  return existsSync(gz) ? statSync(gz).size : gzipSync(readFileSync(file), { level: 9 }).length;
}

/** An output and every chunk it imports statically, transitively: what loads before it runs. */
function staticClosure(meta: Metafile, out: string, seen = new Set<string>()): Set<string> {
  if (seen.has(out)) return seen;
  seen.add(out);
  const output = meta.outputs[out];
  if (output?.cssBundle) seen.add(output.cssBundle);
  for (const imp of output?.imports ?? []) {
    if (imp.kind === 'import-statement' && !imp.external) staticClosure(meta, imp.path, seen);
  }
  return seen;
}

function outputOf(meta: Metafile, entryPoint: string): string | undefined {
  return Object.entries(meta.outputs).find(([, o]) => o.entryPoint === entryPoint)?.[0];
}

function sum(files: Iterable<string>): number {
  let total = 0;
  for (const f of files) total += gzipBytes(f);
  return total;
}

/** The biggest files of a page's first load and the packages filling each: where to cut. */
function breakdown(meta: Metafile, files: Set<string>): string[] {
  return [...files]
    .map((f) => {
      const byPackage = new Map<string, number>();
      for (const [input, { bytesInOutput }] of Object.entries(meta.outputs[f]?.inputs ?? {})) {
        const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input.split('/').slice(0, 2).join('/');
        byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + bytesInOutput);
      }
      const top = [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 4);
      return { f, gz: gzipBytes(f), top: top.map(([k, v]) => `${k} ${(v / KB).toFixed(0)} KB`).join(', ') };
    })
    .sort((a, b) => b.gz - a.gz)
    .slice(0, 8)
    .map((r) => `| ${r.f.replace('dist/web/', '')} | ${(r.gz / KB).toFixed(1)} KB | ${r.top} |`);
}

/** A page with the chunks only it loads later: one output's static closure after another, plus its zh_CN texts. */
function pageWithPartsGzip(meta: Metafile, shell: ReadonlySet<string>, entries: readonly string[], texts: string): number {
  let files = new Set(shell);
  for (const entry of entries) {
    const out = outputOf(meta, entry);
    if (!out) throw new Error(`bench: ${entry} is not a lazy chunk`);
    files = staticClosure(meta, out, files);
  }
  const textOut = outputOf(meta, texts);
  if (textOut) files.add(textOut);
  return sum(files) / KB;
}

/**
 * The video page with its lazily loaded player open (issue 30: the player loads only there): the
 * shell, the page's chunk, the preview modal's chunk and the zh_CN video texts. largestPageGzip
 * covers every page alone; this one adds the player, which only a click loads.
 */
function videoPageRow(meta: Metafile, shell: ReadonlySet<string>): RowSpec {
  const value = pageWithPartsGzip(meta, shell, ['web/features/video/VideoListPage.tsx', 'web/features/video/VideoPreviewModal.tsx'], 'locales/zh_CN/video.json');
  return { id: 'videoPageGzip', figure: 'video page with its player loaded, cumulative (gzip)', value, unit: 'KB', budget: 350, note: 'shell + VideoListPage + VideoPreviewModal (MSE player) + zh_CN video texts' };
}

/**
 * The visualization designer (issue 31: the grid loads only there): the shell, the designer's
 * chunk with everything it imports (grid, widget views with uPlot, properties panel), every chunk
 * the designer's own code imports lazily, and the zh_CN visualization texts.
 */
function designerPageRow(meta: Metafile, shell: ReadonlySet<string>): RowSpec {
  const designer = 'web/features/visualization/DesignerPage.tsx';
  const out = outputOf(meta, designer);
  if (!out) throw new Error(`bench: ${designer} is not a lazy chunk`);
  const own = [...staticClosure(meta, out, new Set(shell))].filter((f) => !shell.has(f));
  const lazy = own.flatMap((f) => (meta.outputs[f]?.imports ?? []).filter((i) => i.kind === 'dynamic-import' && !i.external).map((i) => meta.outputs[i.path]?.entryPoint));
  const parts = [...new Set(lazy.filter((e): e is string => Boolean(e)))];
  const value = pageWithPartsGzip(meta, shell, [designer, ...parts], 'locales/zh_CN/visualization.json');
  const note = `shell + DesignerPage (own grid: no grid library; widgets, uPlot, properties) + ${parts.length ? parts.join(', ') : 'no lazy parts'} + zh_CN visualization texts`;
  return { id: 'designerPageGzip', figure: 'visualization designer with its lazy parts, cumulative (gzip)', value, unit: 'KB', budget: 350, note };
}

function webRows(): { rows: RowSpec[]; loginBreakdown: string[] } {
  const meta = JSON.parse(readFileSync(webMetaFile, 'utf8')) as Metafile;
  const entry = outputOf(meta, webEntry);
  if (!entry) throw new Error(`bench: ${webEntry} is not in ${webMetaFile}`);
  const shell = staticClosure(meta, entry);

  const loginOut = outputOf(meta, loginPage);
  const login = loginOut ? staticClosure(meta, loginOut, new Set(shell)) : shell;
  // Locale namespaces are chunks of their own (web/i18n/i18n.ts): the login page also fetches the
  // preloaded ones and its own, in the default language.
  for (const ns of loginNamespaces) {
    const out = outputOf(meta, `locales/zh_CN/${ns}.json`);
    if (out) login.add(out);
  }
  const loginNote = loginOut
    ? `entry + static imports + ${loginPage} chunk + zh_CN ${loginNamespaces.join('/')} (${login.size} files)`
    : `${loginPage} is not a lazy chunk: entry + static imports`;

  let largest = { page: '(none: no lazy routes yet)', bytes: sum(shell) };
  for (const [out, o] of Object.entries(meta.outputs)) {
    if (!o.entryPoint || o.entryPoint === webEntry) continue;
    const bytes = sum(staticClosure(meta, out, new Set(shell)));
    if (bytes >= largest.bytes) largest = { page: o.entryPoint, bytes };
  }
  const rows: RowSpec[] = [
    { id: 'loginFirstLoadGzip', figure: 'login page, first load (JS+CSS, gzip)', value: sum(login) / KB, unit: 'KB', budget: 150, note: loginNote },
    { id: 'largestPageGzip', figure: 'any console page, cumulative (gzip)', value: largest.bytes / KB, unit: 'KB', budget: 350, note: `largest: ${largest.page}` },
    videoPageRow(meta, shell),
    designerPageRow(meta, shell),
  ];
  return { rows, loginBreakdown: breakdown(meta, login) };
}

// ---------------------------------------------------------------- the running binary

async function coldStart(binary: string): Promise<RowSpec> {
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < coldStartRuns; i++) {
    const gw = await startBinary({ binary });
    times.push(gw.startupMs);
    cpu.push(cpuMs(gw.pid));
    await gw.kill();
  }
  const sorted = [...times].sort((a, b) => a - b);
  return {
    id: 'coldStartMs',
    figure: 'cold start to first GET /api/health 200 (x64)',
    value: median(times),
    unit: 'ms',
    budget: 250,
    note: `median of ${coldStartRuns}, fresh data dir each (first boot); min ${sorted[0]!.toFixed(0)}, max ${sorted.at(-1)!.toFixed(0)}; CPU used by then: median ${median(cpu).toFixed(0)} ms`,
  };
}

const IDLE_RESTARTS = 5;

async function idleRss(pid: number): Promise<Rss> {
  await sleep(2000);
  return rssOf(pid);
}

async function idleRows(binary: string): Promise<RowSpec[]> {
  const fresh = await startAfterReboot({ binary });
  // oxlint-disable-next-line typescript/no-misused-promises -- finally() waits for the promise its callback returns
  const first = await idleRss(fresh.pid).finally(() => fresh.kill());

  const keys = benchLicenceKeys();
  try {
    const dataDir = join(keys.dir, 'data');
    const args = ['--license-public-key', keys.publicKeyFile];
    const booting = await startAfterReboot({ binary, dataDir, args });
    // oxlint-disable-next-line typescript/no-misused-promises -- finally() waits for the promise its callback returns
    await provision(booting, keys.privateKeyPem).finally(() => booting.kill());
    // A provisioned gateway after a reboot: the state it idles in for months. Restarted a few
    // times: one start's reading moves by ±4 MB (scripts/lib/bench-measure.ts, medianRss).
    const readings: Rss[] = [];
    for (let i = 0; i < IDLE_RESTARTS; i++) {
      const gw = await startBinary({ binary, dataDir, args });
      // oxlint-disable-next-line typescript/no-misused-promises -- finally() waits for the promise its callback returns
      readings.push(await idleRss(gw.pid).finally(() => gw.kill()));
    }
    const ready = medianRss(readings);
    return [
      {
        id: 'idleRssMb',
        figure: 'RSS after start, idle 2 s (provisioned, restarted)',
        value: ready.rss / MB,
        unit: 'MB',
        budget: 110,
        note: `median of ${IDLE_RESTARTS} starts (${rssRange(readings)}): anon ${mb(ready.anon)} MB + file-backed ${mb(ready.file)} MB; first boot on an empty dir: ${mb(first.rss)} MB`,
      },
    ];
  } finally {
    keys.remove();
  }
}

// ---------------------------------------------------------------- report

interface Machine {
  date: string;
  commit: string;
  /** When the measured binary was built. */
  binaryBuilt: string;
  cpus: number;
  cpuModel: string;
  node: string;
  loadAverage1m: number;
  uptimeAtStart: string;
  uptimeAtEnd: string;
}

interface Results {
  machine: Machine;
  rows: Row[];
  loginBreakdown: string[];
}

/** `uptime`, plus the kernel's CPU pressure (share of time some runnable task waited for a CPU) where it is reported. */
function uptime(): string {
  let line = 'unknown';
  try {
    line = execFileSync('uptime').toString().trim();
  } catch {
    // no uptime(1): keep 'unknown'
  }
  try {
    const some = /^some avg10=(\S+) avg60=(\S+)/m.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    if (some) line += `; CPU pressure avg10 ${some[1]} %, avg60 ${some[2]} %`;
  } catch {
    // kernels without PSI
  }
  return line;
}

function machine(): Machine {
  const git = (() => {
    try {
      return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
    } catch {
      return 'unknown';
    }
  })();
  return {
    date: new Date().toISOString(),
    commit: git,
    binaryBuilt: existsSync(binaryPath('x64')) ? statSync(binaryPath('x64')).mtime.toISOString() : 'not built',
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    loadAverage1m: load1m(),
    uptimeAtStart: uptime(),
    uptimeAtEnd: '',
  };
}

function table(rows: Row[], runDate: string): string {
  const lines = ['| figure | measured | budget | verdict | load 1 min (start → end) | how |', '|---|---|---|---|---|---|'];
  for (const r of rows) {
    const earlier = r.measuredAt < runDate ? ` (measured ${r.measuredAt.slice(0, 16).replace('T', ' ')} UTC, an earlier run)` : '';
    lines.push(`| ${r.figure} | ${fmt(r.value, r.unit)} | ${fmtBudget(r)} | ${r.status} | ${r.load[0]} → ${r.load[1]} | ${r.note}${earlier} |`);
  }
  return lines.join('\n');
}

function previousResults(): Partial<Results> {
  try {
    return JSON.parse(readFileSync(resultsFile, 'utf8')) as Partial<Results>;
  } catch {
    return {};
  }
}

/** This run's rows, and for groups it did not run, the rows of the run that last measured them (in a fixed order). */
function merge(fresh: Row[], previous: readonly Row[]): Row[] {
  const order = [
    'loginFirstLoadGzip',
    'largestPageGzip',
    'binaryOverBaseMb',
    'coldStartMs',
    'idleRssMb',
    'deviceListP95Ms',
    'deviceImportMs',
    'telemetryMsgPerSec',
    'telemetryMqtt5MsgPerSec',
    'bareAedesMsgPerSec',
    'telemetryVsBareAedesPct',
    'telemetryLatencyP99Ms',
    'telemetryPacedLatencyP99Ms',
    'telemetryLonePubackP50Ms',
    'telemetryWriteBytesPerMsg',
    'writePathBytesPerMsg',
    'rss1000DevicesMb',
    'rss10000DevicesMb',
    'stormConnectedS',
    'stormConnackTimeouts',
    'stormDeviceListP95Ms',
    'soakRssSlopeMbPer10Min',
    'historyChartDrawMs',
    'historyChartFetchMs',
    'flowPreview500Ms',
    'modbusOnTimePct',
    'modbusGatewayCpuPct',
    'modbusRssMb',
    'modbusDtuOnTimePct',
    'videoPageGzip',
    'videoFirstFrameMs',
    'videoFirstFragmentMs',
    'videoGatewayCpuPct',
    'videoDelayGrowthMs',
  ];
  const byId = new Map<string, Row>();
  // Rows written before rows carried their load and date cannot be shown next to fresh ones.
  for (const r of previous) if (!retiredIds.has(r.id) && Array.isArray(r.load) && r.measuredAt) byId.set(r.id, r);
  for (const r of fresh) byId.set(r.id, r);
  const rank = (id: string): number => (order.includes(id) ? order.indexOf(id) : order.length);
  return [...byId.values()].sort((a, b) => rank(a.id) - rank(b.id));
}

function markdown(rows: Row[], loginBreakdown: string[], m: Machine): string {
  return `# Benchmarks

Performance figures of the gateway (size, start-up, memory, device management, telemetry) and
their budgets, written by \`npm run bench\` (scripts/bench.ts). Benchmarks, not timed tests:
nothing fails on them; an OVER or UNDER is a finding to act on
(diagnoses: [PERFORMANCE-FINDINGS.md](PERFORMANCE-FINDINGS.md)).

${table(rows, m.date)}

Machine: ${m.cpus} × ${m.cpuModel}, Node ${m.node}, run ${m.date}, commit ${m.commit}, binary built
${m.binaryBuilt}.

**Load.** The machine is shared with other engineers' builds and test runs; every timing above
carries the 1-minute load average at the start and end of its measurement (${m.cpus} CPUs: a load
above ${m.cpus} means processes were waiting for a CPU, and wall-clock figures are inflated
accordingly; the CPU-time figures in the notes are less sensitive to it). \`uptime\` when the run
started: \`${m.uptimeAtStart}\`; when it ended: \`${m.uptimeAtEnd}\`.

## Login page first load, largest files

| file | gzip | biggest inputs (raw bytes in the file) |
|---|---|---|
${loginBreakdown.join('\n')}

## How each figure is measured

Every figure that runs the gateway runs a private copy of the built x64 binary
(\`dist/bin/edge-console-linux-x64\`) on loopback, on a fresh temporary data dir, provisioned over
HTTP as a factory script does it (licence with the setup code, administrator), with real sockets:
HTTP through \`fetch\`, MQTT through \`mqtt\` clients, the live websocket through \`ws\`. The load
generators run in the bench process on the same machine, so they share its CPUs with the gateway.

- **Console sizes**: from esbuild's metafile (\`dist/web-meta.json\`), gzip level 9 sizes of the
  pre-compressed \`.gz\` files. First load of a page = the entry chunk, every chunk it imports
  statically (transitively), and the page's lazy chunk with its own static imports; CSS travels
  inside the chunks that use it (scripts/web-build-plugins.ts). The login page is
  \`${loginPage}\`, plus the zh_CN locale namespaces it fetches (${loginNamespaces.join(', ')}).
- **Binary over base**: \`dist/bin/edge-console-linux-<arch>\` minus the stripped node binary it was
  injected into (\`dist/cache/node-<version>-linux-<arch>-stripped\`); arm64 when
  \`scripts/binary.ts\` built it. Both embed the server bundle gzipped (it was embedded plain as
  arm64's SEA main, +2.2 MB, which put arm64 at +6.01 MB); only x64 adds its code cache (1.1 MB
  gzipped), so arm64 comes out smaller.
- **Cold start**: spawn the x64 binary on a fresh temporary data dir (so it includes first-boot
  work: secrets, migrations), poll \`GET /api/health\` with back-to-back raw HTTP requests, time
  from spawn to the first 200; median of ${coldStartRuns}.
- **Idle RSS**: \`VmRSS\` from \`/proc/<pid>/status\` 2 s after the first health 200, on a data
  dir provisioned over HTTP (licence + administrator) and then restarted; the median of
  ${IDLE_RESTARTS} restarts (one start's reading moves by ±4 MB; the note gives the range; the rules
  group's row with 1,000 scenes stored takes the median of its 5 starts the same way). File-backed
  pages are the node binary's own code, shared and reclaimable. How many of them a start maps
  depends on how the binary got into the page cache (the kernel maps a whole cached folio at a
  fault, and a file just written or read whole sits in large ones: 70-85 MB instead of 54-57), so
  the first start of every measured sequence (first boot, provisioning, the rules' and fleets'
  data dirs) drops the binary's pages first and reads it from disk, as after a reboot
  (scripts/lib/bench-start.ts); the cold-start rows leave the cache as it is. Anonymous pages are
  the heap; 1 s after start the gateway runs one memory-reducing GC (server/lib/old-generation-trim.ts).
- **Device import** (scripts/lib/bench-devices.ts): an organization tree (Bench → East → Plant-1,
  Bench → West), two products, 1,000 devices batch-generated (\`POST /api/yt/device/batch\`) under
  West; then a 10,000-row CSV (name, alias, label, longitude, latitude, a preset access token per
  row) goes through the wizard's two calls: \`POST /api/yt/device/import/preview\` (multipart
  upload, parsing) and \`POST /api/yt/device/import/commit\` (column mapping, every rule checked
  per row, all rows created in one transaction). The figure is the wall time of both round trips;
  the note gives each and the server's CPU time.
- **Device list**: on that gateway (11,000 devices: 200 imported devices connect over MQTT and 100
  leave again, so states are mixed; 50 favourites), 300 sequential \`GET /api/yt/device\` with
  \`pageSize=10\` cycling through 13 mixes: page 1 and deep pages, newest first and by name, name
  substring (common and rare), state ONLINE / INACTIVE, product, organization (whole tree with its
  descendants, one branch), favourites, and all filters at once. Round trip measured in the
  client (keep-alive connection, JSON parsed), after 30 warm-up requests; p50/p95/p99 over all,
  p95 per mix in \`bench/results.json\`; server CPU per request from \`/proc/<pid>/stat\`.
- **Telemetry** (scripts/lib/bench-telemetry.ts, scripts/lib/bench-load.ts): 50 devices of a
  product with the simulator's published thing model, each a real MQTT connection publishing
  \`{"ts": …, "values": {"temperature": t, "humidity": h}}\` at QoS 1 on \`v1/devices/me/telemetry\`,
  each keeping at most 32 messages unacknowledged (the next message leaves when a PUBACK comes
  back). Each message carries its own millisecond (the device's clock, one past its previous when
  two fall in the same millisecond): history keeps one value per device, key and millisecond, as
  ThingsBoard does, so messages without \`ts\` arriving in the same millisecond (hundreds per second
  per device here) would overwrite each other instead of being stored. After the run the history
  API must count every acknowledged message (one COUNT bucket per device), or the bench fails. One websocket on
  \`/api/ws\` (token in the query) holds a TIMESERIES LATEST_TELEMETRY subscription per device.
  2 s warm-up, then PUBACKs counted for 10 s: a PUBACK is sent only once the batch holding the
  message is committed (synced to disk), so this is stored messages per second. Latency: each device's
  temperature value names its message (it cycles through the model's 1,651 steps), the bench
  notes when it published it and takes the difference when that value arrives on the websocket.
  A second phase paces the same devices at 1,000 msg/s in all for 5 s and reports the latency of a
  gateway that is not saturated. A third reconnects the same devices as MQTT 5 clients and repeats
  the sustained run (same payloads, window, warm-up and duration; every acknowledged message checked
  in history): the MQTT 5 row.
- **Bare aedes**, in the same run just before: \`scripts/lib/bench-bare-broker.ts\` in its own
  Node process (as the gateway is), default in-memory persistence, no authentication, no storage,
  no subscribers; the same 50 publishers, payloads, window, warm-up and duration. The ratio is
  gateway ÷ bare aedes throughput; the note adds the same ratio by CPU time per message.
- **Flash wear** (scripts/lib/bench-flash.ts): each commit policy on a gateway of its own, 100
  devices connected; bytes are the gateway's \`/proc/<pid>/io\` \`write_bytes\` (everything it dirtied
  in the page cache for the disk: the staging ring, WAL, checkpoints, the history worker, logs) over
  a phase ÷ the PUBACKs of the phase. Phases: idle 180 s (default policy only), a lone device at
  2 msg/s for 20 s, 100 devices × 1 msg/s for 125 s after 5 s of warm-up (two moves into blocks, a
  minute apart, fall inside it), 100 devices × 10 msg/s for 15 s.
- **Write path alone** (scripts/lib/bench-write-path.ts, in the history group): in process, 50
  devices × 2 keys committed into the staging table 2,000 (and 500) messages per commit, a move
  into blocks every 32,768 values, \`/proc/self/io\` write_bytes per message over 300,000 messages:
  the telemetry row's bytes without the batch sizes that the machine's load makes.
- **RSS with 1,000 devices** (scripts/lib/bench-connections.ts): \`startSimulator\` (the code behind
  \`npm run simulate\`) batch-generates 1,000 devices of its thing-model product and connects them
  (QoS 1, each subscribed to its RPC topic), 1 msg/s each; after 20 s the binary's \`VmRSS\` is
  read from \`/proc/<pid>/status\` (the simulator's clients live in the bench process, so they are
  not in it), with the peak sampled every second, and the server's rate is the PUBACKs per second.
- **10,000 devices and the reconnect storm** (scripts/lib/bench-scale.ts): 10,000 devices
  batch-generated, the gateway restarted, then 10,000 raw MQTT 3.1.1 sockets from one separate
  process (scripts/lib/bench-fleet.ts: raw sockets, lighter than MQTT.js clients; the note gives its RSS) connect
  at once, subscribe to their RPC topic and publish QoS 1 at 1 msg/s each; VmRSS after 30 s. Then
  the gateway is stopped and started on the same data dir and all 10,000 connect again at once:
  seconds to the last CONNACK, devices without CONNACK 0 after 30 s, and the device list's p95
  while it lasts. Needs \`ulimit -n\` ≥ 10,500 in the shell that runs the bench (both processes
  inherit it).
- **Soak** (\`--soak MINUTES\`, scripts/lib/bench-soak.ts): 1,000 devices at 1 msg/s each, a live
  websocket following 100 of them and history queries every 2 s; VmRSS, event-loop delay (perf_hooks,
  preloaded through NODE_OPTIONS) and bytes written per message every 10 s, drawn in
  [bench/soak.png](bench/soak.png); the figure is RSS's slope after the warm-up. Every sample also
  prints the main thread's heap spaces, its full GCs of the last minute and the mappings whose
  resident memory moved, so a step can be told apart (V8 pages, malloc, the binary's code).
- **Video** (scripts/lib/bench-video.ts): the binary remuxes one 1920×1080 25 fps H.264 stream of
  GStreamer's RTSP server on loopback (tests/helpers/rtsp-camera.py) for one websocket viewer for
  \`--video-minutes\` (default 1; the issue's hold is 30). First fragment: socket opened → first
  moof+mdat (a fresh ffmpeg). First frame (scripts/lib/bench-video-frame.ts): Debian Chromium on
  the video page, click on a channel's preview → the video element's first requestVideoFrameCallback,
  a new channel (a fresh ffmpeg and RTSP session) each of 5 runs after a warm-up, median. CPU:
  gateway + ffmpeg from /proc over the run. Delay growth: each fragment's arrival minus its media
  time (tfdt) against the run's best, p95: the drift, not the absolute camera-to-screen delay (that
  needs a clock in the picture). videoPageGzip: the video page with its lazy player loaded.
- **Visualization** (scripts/lib/bench-visualization.ts): a configuration of 30 widgets (value
  cards, gauges, line charts, status lights), one per device, made through the API, with a share
  link; 30 MQTT clients publish 1 msg/s each at QoS 1. Debian Chromium shows the share page at
  1920×1080; a recorder installed before the page loads keeps every requestAnimationFrame delta,
  every long task (> 50 ms) and every long animation frame with its scripts, and notes when the
  first widget shows its first value. Counted are the 30 s from that moment (page load excluded):
  a frame whose delta exceeds 1.5 × the display's frame interval (the median delta) is dropped;
  the drops of the first second, while the first values paint every widget from empty at once, are
  a row of their own, apart from the drops while the 1 Hz updates come; the DOM changes in the
  widgets are counted (so a frozen page cannot pass). The bench prints the dropped frames' times and
  the long animation frames' scripts. A Node websocket follows the share link as SharePage does: PUBACK → update, and
  publish → update (which includes the commit window). designerPageGzip: the designer's chunks.
- **Modbus polling** (scripts/lib/bench-modbus.ts): 200 pymodbus Modbus TCP slaves in one process
  (tests/helpers/modbus-slave.py \`tcp-many\`), 50 input-register points each in five blocks of ten
  (five requests per slave and second), polled every second; on time = requests answered against
  requests due over 30 s after a 10 s warm-up, from the gateway's per-device counters; CPU and RSS
  of the gateway process from /proc. Then 20 REGISTER_SEND DTUs (\`dtu-many\`, pymodbus's RTU
  framer) with 8 slaves each on their bus, the same points, RTU over the TCP access port.
- **History chart** (scripts/lib/bench-history-chart.ts): one device of the simulator's product stores
  50,000 temperature readings over MQTT (arrays of 1,000 \`{ts, values}\` with explicit
  timestamps 60 ms apart, in the last hour; the history API must return all of them). Debian
  Chromium (headless, through playwright-core, 1440×900) signs in, opens the device's data tab and
  the property card's history drawer (its first query, with the UI's default limit, loads uPlot and
  warms up), sets the limit to 50,000 and queries once more as warm-up, then 5 measured times. All
  times are the page's own clock: fetch is the request's resource timing (start → last byte);
  parse is \`JSON.parse\` of the answer, timed by a wrapper installed before the page loads;
  prepare runs from parse end to the chart's \`ec-chart:set-data\` mark (state, series mapping,
  \`alignSeries\`); draw from that mark to \`ec-chart:drawn\` (uPlot's draw hook); paint from
  there to the first task after the next animation frame. The chart sets these marks only when the
  page sets \`window.__ecChartMarks\` (web/components/TimeSeriesChart.tsx). The budgeted figure
  is last byte → painted (body read as text, parse, prepare, draw, paint): what the browser does
  with 50,000 points once they arrived; fetch is its own row. Medians of the 5 runs.
- **Flow preview** (scripts/lib/bench-flow-preview.ts): the soft gateway's flow picture
  (web/features/node-red/flowLayout.ts and FlowCanvas.tsx, bundled with esbuild under
  preact/compat as the console is) draws one tab of 500 nodes in chains of ten inside 25 groups in
  Debian Chromium; flows array in hand → the first task after the next animation frame (layout,
  render, style, paint), median of 5 after a warm-up. Needs no binary.

## Reproduce

\`\`\`
export PATH=$PWD/node_modules/.bin:$PATH
npm run bench                                   # builds dist/ first if it is missing
npx tsx scripts/bench.ts --build                # rebuild web, server and the x64 binary first
npx tsx scripts/bench.ts --only devices,telemetry   # some groups: ${groups.join(', ')}
ulimit -n 20000; npx tsx scripts/bench.ts --only scale   # 10,000 devices: a descriptor per socket
npx tsx scripts/bench.ts --soak 10              # the soak alone, 10 minutes
\`\`\`

Results are also written to \`bench/results.json\` (not committed), with the percentiles and
counts behind each note.
`;
}

async function main(): Promise<void> {
  const only = selectedGroups(process.argv);
  const needsBinary = [...only].some((g) => !needNoBinary.has(g));
  if (needsBinary) ensureBuilt();
  const m = machine();
  if (m.loadAverage1m > m.cpus) {
    console.warn(`bench: load average ${m.loadAverage1m} on ${m.cpus} CPUs; timings will be inflated (each row records the load)`);
  }
  const previous = previousResults();
  const dir = mkdtempSync(join(tmpdir(), 'edge-bench-bin-'));
  const rows: Row[] = [];
  let loginBreakdown = previous.loginBreakdown ?? [];
  const step = async (group: Group, fn: () => Promise<RowSpec[]> | RowSpec[]): Promise<void> => {
    if (!only.has(group)) return;
    const started = Date.now();
    console.log(`bench: ${group}…`);
    rows.push(...(await measured(fn)));
    console.log(`bench: ${group} done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  };
  try {
    const binary = needsBinary ? snapshotBinary(dir) : '';
    await step('sizes', () => {
      const web = webRows();
      loginBreakdown = web.loginBreakdown;
      // arm64 only when scripts/binary.ts built it (without --x64-only); the same 5 MB budget.
      const arches: Arch[] = existsSync(binaryPath('arm64')) && existsSync(strippedBasePath('arm64')) ? ['x64', 'arm64'] : ['x64'];
      return [
        ...web.rows,
        ...arches.map((arch): RowSpec => {
          const over = overBase(arch);
          return {
            id: arch === 'x64' ? 'binaryOverBaseMb' : 'binaryArm64OverBaseMb',
            figure: `binary size over its base node binary (${arch})`,
            value: over.over / MB,
            unit: 'MB',
            budget: 5,
            note: `${(over.binary / MB).toFixed(1)} MB binary, ${(over.base / MB).toFixed(1)} MB stripped node ${process.version}`,
          };
        }),
      ];
    });
    await step('coldstart', async () => [await coldStart(binary)]);
    await step('idle', () => idleRows(binary));
    await step('devices', () => deviceRows(binary));
    await step('telemetry', () => telemetryRows(binary));
    await step('rules', async () => [...(await ruleRows(binary)), ...(await durationRows(binary)), ...(await storedSceneRows(binary))]);
    await step('connections', () => connectionRows(binary));
    await step('history', () => historyRows());
    await step('chart', () => chartRows(binary));
    await step('scale', () => scaleRows(binary));
    await step('modbus', () => modbusRows(binary));
    await step('cloud', () => cloudRows(binary));
    await step('flash', () => flashRows(binary));
    await step('video', async () => [...(await videoFirstFrameRows(binary)), ...(await videoRows(binary, videoMinutes(process.argv)))]);
    await step('report', () => reportRows());
    await step('flowpreview', () => flowPreviewRows(root));
    await step('nodered', () => nodeRedRows(root));
    await step('visualization', () => visualizationRows(binary));
    await step('soak', () => soakRows(binary, soakMinutes(process.argv) ?? 10));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  m.uptimeAtEnd = uptime();
  const all = merge(rows, previous.rows ?? []);
  console.log(table(all, m.date));
  console.log(`uptime at start: ${m.uptimeAtStart}\nuptime at end:   ${m.uptimeAtEnd}`);
  mkdirSync(join(root, 'bench'), { recursive: true });
  const results: Results = { machine: m, rows: all, loginBreakdown };
  writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(docFile, markdown(all, loginBreakdown, m));
  console.log('wrote bench/results.json and docs/BENCHMARKS.md');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
