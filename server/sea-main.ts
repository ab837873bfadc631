/**
 * Entry of the single executables (scripts/binary.ts): inflates the server bundle and, on x64, the
 * code cache made at build time, both embedded gzipped as SEA assets, and runs the one with the
 * other (server/lib/bundle-loader.ts). arm64 embeds no cache: V8 compiles as it goes.
 * `EDGE_CODE_CACHE_CHECK=1` prints whether V8 took the cache and exits: the build uses it to
 * refuse a binary that would start slowly.
 */
import { getRawAsset } from 'node:sea';
import { gunzipSync } from 'node:zlib';
import { releaseBuffer, runBundle, SERVER_BUNDLE_KEY, SERVER_CODE_CACHE_KEY, STARTUP_BUFFER_BYTES } from './lib/bundle-loader.ts';
import { nodeRedRuntimeCommand } from './cli/node-red-runtime.ts';

/**
 * Inflates a gzip asset into ONE buffer of its exact size (the gzip trailer's last 4 bytes hold
 * it). gunzipSync's default 16 KB output chunks are ~470 small mallocs for the bundle and the
 * cache, then a copy into one buffer: the chunks land in glibc's main heap, which cannot give
 * them back to the system once later allocations sit above them (3.3 MB of idle RSS for the cache
 * alone, docs/PERFORMANCE-FINDINGS.md). One large buffer is its own mapping, unmapped when freed;
 * at least STARTUP_BUFFER_BYTES, so that freeing it leaves glibc's thresholds as they were.
 */
function inflateAsset(key: string): Buffer {
  const gz = new Uint8Array(getRawAsset(key));
  const size = new DataView(gz.buffer, gz.byteOffset + gz.byteLength - 4, 4).getUint32(0, true);
  // +1: a chunk filled to the last byte makes zlib allocate another one and concatenate.
  return gunzipSync(gz, { chunkSize: Math.max(size + 1, STARTUP_BUFFER_BYTES) });
}

function codeCache(): Buffer | undefined {
  try {
    return inflateAsset(SERVER_CODE_CACHE_KEY);
  } catch {
    return undefined; // built without one: V8 compiles as it goes
  }
}

/**
 * Runs the bundle; what it answers is whether V8 took the cache. V8 keeps its own string of the
 * source and its own copy of the cached code, so both inflated buffers (4.5 and 3 MB) are released
 * once the script is compiled and run.
 */
function start(): string {
  const bundle = inflateAsset(SERVER_BUNDLE_KEY);
  const cache = codeCache();
  const loaded = runBundle(bundle, 'main.cjs', require, cache);
  releaseBuffer(bundle);
  if (cache) releaseBuffer(cache);
  return !cache ? 'none' : loaded.cacheRejected ? 'rejected' : 'accepted';
}

/**
 * A soft-gateway instance (`node-red-runtime`, started by server/modules/node-red) needs none of the
 * gateway's bundle: its command imports node built-ins only, so it runs from this small entry
 * without inflating and compiling 4.6 MB of server code that would sit idle in every instance
 * (issue 29's 150 MB per idle instance).
 */
function runNodeRedRuntime(): void {
  nodeRedRuntimeCommand(process.argv.slice(3)).catch((err: unknown) => {
    process.stderr.write(`node-red-runtime: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}

const check = process.env.EDGE_CODE_CACHE_CHECK === '1';
// The bundle's main() reads argv; `--version` returns without starting anything.
if (check) process.argv.splice(2, process.argv.length, '--version');
if (process.argv[2] === 'node-red-runtime' && !check) runNodeRedRuntime();
else {
  const cacheState = start();
  if (check) process.stderr.write(`code cache: ${cacheState}\n`);
}
