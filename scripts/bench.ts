/**
 * `npm run bench`: measures DESIGN.md section 7's figures on the built artefacts, compares each
 * with its budget, prints a table and writes bench/results.json and docs/BENCHMARKS.md.
 * Builds first when dist/ lacks the console metafile or the x64 binary (`--build` forces it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Metafile } from 'esbuild';
import { licenseRoutes, SETUP_CODE_HEADER } from '../server/contract/license.ts';
import { generateLicenseKeyPair, issueLicense } from '../server/modules/license/license-issue.ts';
import { startBinary, type RunningBinary } from '../tests/helpers/binary.ts';
import { binaryPath, overBase } from './binary.ts';
import { root, webEntry, webMetaFile } from './build.ts';

const KB = 1024;
const MB = 1024 * 1024;
/** The route table lazy-loads the sign-in page from here (web/routes.tsx). */
const loginPage = 'web/features/auth/LoginPage.tsx';
/** Namespaces the login page needs: preloaded by web/i18n/i18n.ts, plus its own. */
const loginNamespaces = ['common', 'http', 'auth'];
const coldStartRuns = 10;

interface Row {
  id: string;
  figure: string;
  value: number | null;
  unit: 'KB' | 'MB' | 'ms';
  budget: number | null;
  /** Lower is better for every budget here. */
  status: 'PASS' | 'OVER' | 'not measured';
  note: string;
}

function row(id: string, figure: string, value: number | null, unit: Row['unit'], budget: number | null, note: string): Row {
  const status = value === null ? 'not measured' : budget === null || value <= budget ? 'PASS' : 'OVER';
  return { id, figure, value, unit, budget, status, note };
}

function ensureBuilt(): void {
  const force = process.argv.includes('--build');
  const env = { ...process.env, PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH ?? ''}` };
  if (force || !existsSync(webMetaFile)) execFileSync('tsx', ['scripts/build.ts'], { cwd: root, env, stdio: 'inherit' });
  if (force || !existsSync(binaryPath('x64'))) execFileSync('tsx', ['scripts/binary.ts', '--x64-only'], { cwd: root, env, stdio: 'inherit' });
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

function webRows(): { rows: Row[]; loginBreakdown: string[] } {
  const meta = JSON.parse(readFileSync(webMetaFile, 'utf8')) as Metafile;
  const entry = outputOf(meta, webEntry);
  if (!entry) throw new Error(`bench: ${webEntry} is not in ${webMetaFile}`);
  const shell = staticClosure(meta, entry);

  const loginOut = outputOf(meta, loginPage);
  const login = loginOut ? staticClosure(meta, loginOut, new Set(shell)) : shell;
  // Locale namespaces are chunks of their own (web/i18n/i18n.ts): the login page also fetches the
  // preloaded ones and its own, in the default language.
  for (const ns of loginNamespaces) {
    const out = outputOf(meta, `web/i18n/locales/zh_CN/${ns}.json`);
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
  const rows = [
    row('loginFirstLoadGzip', 'login page, first load (JS+CSS, gzip)', sum(login) / KB, 'KB', 150, loginNote),
    row('largestPageGzip', 'any console page, cumulative (gzip)', largest.bytes / KB, 'KB', 350, `largest: ${largest.page}`),
  ];
  return { rows, loginBreakdown: breakdown(meta, login) };
}

// ---------------------------------------------------------------- the running binary

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** CPU time (user + system) the process has used: less sensitive to a busy machine than wall time. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  return (ticks * 1000) / clockTicks;
}
const clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

async function coldStart(): Promise<Row> {
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < coldStartRuns; i++) {
    const gw = await startBinary({ binary: binaryPath('x64') });
    times.push(gw.startupMs);
    cpu.push(cpuMs(gw.pid));
    await gw.kill();
  }
  const sorted = [...times].sort((a, b) => a - b);
  return row(
    'coldStartMs',
    'cold start to first GET /api/health 200 (x64)',
    median(times),
    'ms',
    250,
    `median of ${coldStartRuns}, fresh data dir each (first boot); min ${sorted[0]!.toFixed(0)}, max ${sorted.at(-1)!.toFixed(0)}; CPU used by then: median ${median(cpu).toFixed(0)} ms`,
  );
}

function rssOf(pid: number): { rss: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') * KB, anon: kb('RssAnon') * KB, file: kb('RssFile') * KB };
}

async function idleRss(gw: RunningBinary): Promise<{ rss: number; anon: number; file: number }> {
  await new Promise((r) => setTimeout(r, 2000));
  return rssOf(gw.pid);
}

/** First boot over HTTP as a provisioning script does it: licence, then the administrator. */
async function provision(gw: RunningBinary, privateKeyPem: string): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(issueLicense({ privateKeyPem, device: '*', days: 30 }))]), 'edge.lic');
  const headers = { [SETUP_CODE_HEADER]: gw.setupCode ?? '' };
  const lic = await fetch(`${gw.url}${licenseRoutes.upload.url}`, { method: 'POST', headers, body: form });
  if (!lic.ok) throw new Error(`bench: licence upload answered ${lic.status} ${await lic.text()}`);
  const admin = await fetch(`${gw.url}${licenseRoutes.setupAdmin.url}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'Edge@Console1' }),
  });
  if (!admin.ok) throw new Error(`bench: administrator creation answered ${admin.status} ${await admin.text()}`);
}

async function rssRows(): Promise<Row[]> {
  const fresh = await startBinary({ binary: binaryPath('x64') });
  const first = await idleRss(fresh).finally(() => fresh.kill());

  const dir = mkdtempSync(join(tmpdir(), 'edge-bench-'));
  try {
    const keys = generateLicenseKeyPair();
    const keyFile = join(dir, 'license-public.pem');
    writeFileSync(keyFile, keys.publicKeyPem);
    const dataDir = join(dir, 'data');
    const args = ['--license-public-key', keyFile];
    const booting = await startBinary({ binary: binaryPath('x64'), dataDir, args });
    await provision(booting, keys.privateKeyPem).finally(() => booting.kill());
    // A provisioned gateway after a reboot: the state it idles in for months.
    const gw = await startBinary({ binary: binaryPath('x64'), dataDir, args });
    const ready = await idleRss(gw).finally(() => gw.kill());
    const mb = (n: number): string => (n / MB).toFixed(1);
    return [
      row(
        'idleRssMb',
        'RSS after start, idle 2 s (provisioned, restarted)',
        ready.rss / MB,
        'MB',
        110,
        `anon ${mb(ready.anon)} MB + file-backed ${mb(ready.file)} MB; first boot on an empty dir: ${mb(first.rss)} MB`,
      ),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- report

function fmt(value: number | null, unit: Row['unit']): string {
  if (value === null) return '—';
  return unit === 'ms' ? `${value.toFixed(0)} ms` : `${value.toFixed(unit === 'MB' ? 2 : 1)} ${unit}`;
}

function table(rows: Row[]): string {
  const lines = ['| figure | measured | budget | verdict | how |', '|---|---|---|---|---|'];
  for (const r of rows) {
    const budget = r.budget === null ? '—' : `≤ ${fmt(r.budget, r.unit).replace('.0 ', ' ').replace('.00 ', ' ')}`;
    lines.push(`| ${r.figure} | ${fmt(r.value, r.unit)} | ${budget} | ${r.status} | ${r.note} |`);
  }
  return lines.join('\n');
}

function machine(): Record<string, string | number> {
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
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    loadAverage1m: Number(loadavg()[0]!.toFixed(2)),
  };
}

function markdown(rows: Row[], loginBreakdown: string[], m: Record<string, string | number>): string {
  return `# Benchmarks

Figures and budgets from DESIGN.md section 7, written by \`npm run bench\` (scripts/bench.ts).
Benchmarks, not timed tests: nothing fails on them; an OVER is a finding to act on.

${table(rows)}

Machine: ${m.cpus} × ${m.cpuModel}, Node ${m.node}, ${m.date}, commit ${m.commit},
load average ${m.loadAverage1m} when the run started (other work on the machine inflates the
timings; compare runs made at rest).

## Login page first load, largest files

| file | gzip | biggest inputs (raw bytes in the file) |
|---|---|---|
${loginBreakdown.join('\n')}

## How each figure is measured

- **Console sizes**: from esbuild's metafile (\`dist/web-meta.json\`), gzip level 9 sizes of the
  pre-compressed \`.gz\` files. First load of a page = the entry chunk, every chunk it imports
  statically (transitively), and the page's lazy chunk with its own static imports; CSS travels
  inside the chunks that use it (scripts/web-build-plugins.ts). The login page is
  \`${loginPage}\`, plus the zh_CN locale namespaces it fetches (${loginNamespaces.join(', ')}).
- **Binary over base**: \`dist/bin/edge-console-linux-x64\` minus the stripped node binary it was
  injected into (\`dist/cache/node-<version>-linux-x64-stripped\`).
- **Cold start**: spawn the x64 binary on a fresh temporary data dir (so it includes first-boot
  work: secrets, migrations), poll \`GET /api/health\` with back-to-back raw HTTP requests, time
  from spawn to the first 200; median of ${coldStartRuns}.
- **Idle RSS**: \`VmRSS\` from \`/proc/<pid>/status\` 2 s after the first health 200, on a data
  dir provisioned over HTTP (licence + administrator) and then restarted. File-backed pages are
  the node binary's own code, shared and reclaimable; anonymous pages are the heap.

## Reproduce

\`\`\`
export PATH=$PWD/node_modules/.bin:$PATH
npm run bench              # builds dist/ first if it is missing
npx tsx scripts/bench.ts --build   # rebuild web, server and the x64 binary first
\`\`\`

Results are also written to \`bench/results.json\` (not committed).
`;
}

async function main(): Promise<void> {
  ensureBuilt();
  const m = machine();
  if (Number(m.loadAverage1m) > Number(m.cpus)) {
    console.warn(`bench: load average ${m.loadAverage1m} on ${m.cpus} CPUs; timings will be inflated`);
  }
  const over = overBase('x64');
  const web = webRows();
  const rows: Row[] = [
    ...web.rows,
    row('binaryOverBaseMb', 'binary size over its base node binary', over.over / MB, 'MB', 5, `${(over.binary / MB).toFixed(1)} MB binary, ${(over.base / MB).toFixed(1)} MB stripped node ${process.version}`),
    await coldStart(),
    ...(await rssRows()),
    row('telemetryThroughput', 'telemetry MQTT → SQLite → websocket vs bare aedes', null, 'ms', null, 'not measured yet — roadmap step 3 (telemetry pipeline); budget ≥ 50% of bare aedes'),
    row('deviceListLatency', 'device list page with 10k devices', null, 'ms', null, 'not measured yet — roadmap step 2 (device management)'),
  ];
  console.log(table(rows));
  mkdirSync(join(root, 'bench'), { recursive: true });
  writeFileSync(join(root, 'bench/results.json'), `${JSON.stringify({ machine: m, rows }, null, 2)}\n`);
  writeFileSync(join(root, 'docs/BENCHMARKS.md'), markdown(rows, web.loginBreakdown, m));
  console.log('wrote bench/results.json and docs/BENCHMARKS.md');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
