/**
 * Entry of the x64 single executable (scripts/binary.ts): inflates the server bundle and the code
 * cache made at build time, both embedded gzipped as SEA assets, and runs the one with the other
 * (server/lib/bundle-loader.ts).
 * `EDGE_CODE_CACHE_CHECK=1` prints whether V8 took the cache and exits: the build uses it to
 * refuse a binary that would start slowly.
 */
import { getRawAsset } from 'node:sea';
import { gunzipSync } from 'node:zlib';
import { runBundle, SERVER_BUNDLE_KEY, SERVER_CODE_CACHE_KEY } from './lib/bundle-loader.ts';

function codeCache(): Uint8Array | undefined {
  try {
    return new Uint8Array(gunzipSync(new Uint8Array(getRawAsset(SERVER_CODE_CACHE_KEY))));
  } catch {
    return undefined; // built without one: V8 compiles as it goes
  }
}

/**
 * Runs the bundle; what it answers is whether V8 took the cache. In a function so that the
 * inflated cache (about 3 MB) is garbage once the bundle runs: V8 keeps the source, not the cache.
 */
function start(): string {
  const source = gunzipSync(new Uint8Array(getRawAsset(SERVER_BUNDLE_KEY))).toString('utf8');
  const cache = codeCache();
  const loaded = runBundle(source, 'main.cjs', require, cache);
  return !cache ? 'none' : loaded.cacheRejected ? 'rejected' : 'accepted';
}

const check = process.env.EDGE_CODE_CACHE_CHECK === '1';
// The bundle's main() reads argv; `--version` returns without starting anything.
if (check) process.argv.splice(2, process.argv.length, '--version');
const cacheState = start();
if (check) process.stderr.write(`code cache: ${cacheState}\n`);
