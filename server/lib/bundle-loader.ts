/**
 * Runs the server bundle (dist/server/main.cjs) from source text through `vm.Script`, so V8 can
 * start from a code cache taken AFTER a start-up (scripts/binary.ts). Node's own SEA code cache
 * is made before anything runs and so holds only the bundle's top level: every function the
 * start-up calls was still compiled on each start (~60 ms of CPU here). The x64 binary's entry
 * (server/sea-main.ts) and the build step that makes the cache both go through `runBundle`, so
 * the source V8 sees, and thus the cache's check, are the same.
 */
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/** SEA asset keys of the x64 binary: the bundle (gzip, inflated at start) and its code cache. */
export const SERVER_BUNDLE_KEY = 'server/main.cjs.gz';
export const SERVER_CODE_CACHE_KEY = 'server/main.cjs.cache';

export interface LoadedBundle {
  script: Script;
  /** True when a cache was given and V8 refused it (other node version or V8 flags). */
  cacheRejected: boolean;
}

/** What node's CommonJS loader would wrap the file in; the bundle only requires built-ins. */
function wrap(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

export function runBundle(source: string, filename: string, require: NodeJS.Require, cachedData?: Uint8Array): LoadedBundle {
  const script = new Script(wrap(source), { filename, cachedData });
  const fn = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} };
  fn.call(module.exports, module.exports, require, module, filename, dirname(filename));
  return { script, cacheRejected: cachedData !== undefined && script.cachedDataRejected === true };
}
