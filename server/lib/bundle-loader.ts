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
const WRAP_HEAD = '(function (exports, require, module, __filename, __dirname) {';
const WRAP_TAIL = '\n})';

/**
 * Capacity of the start-up's large, short-lived buffers: above glibc's 32 MiB ceiling for its
 * dynamic mmap threshold. Freeing a mapped block below it raises that threshold to the block's size
 * and the heap trim threshold to twice that, for the whole process: later allocations up to that
 * size come from the malloc heaps, which then keep up to twice as much unused memory. Above the
 * ceiling the thresholds stay. Only the bytes written become resident; the rest is address space.
 */
export const STARTUP_BUFFER_BYTES = 33 * 1024 * 1024;

/**
 * The wrapped source as ONE string made from bytes: node turns a large decoded buffer into an
 * external string (malloc'd outside V8's heap) that V8 compiles in place. Wrapping a decoded string
 * with `+` instead made V8 flatten a second 4.5 MB copy in its heap and left the first as garbage
 * until a full GC (docs/PERFORMANCE-FINDINGS.md). The joined buffer is released at once.
 */
function wrappedSource(bundle: Uint8Array): string {
  const head = Buffer.from(WRAP_HEAD);
  const tail = Buffer.from(WRAP_TAIL);
  const length = head.length + bundle.length + tail.length;
  const joined = Buffer.allocUnsafeSlow(Math.max(length, STARTUP_BUFFER_BYTES));
  joined.set(head, 0);
  joined.set(bundle, head.length);
  joined.set(tail, head.length + bundle.length);
  const text = joined.toString('utf8', 0, length);
  releaseBuffer(joined);
  return text;
}

/**
 * Gives a large buffer's memory back now rather than at the next full GC (ES2024
 * `ArrayBuffer.prototype.transfer`, which detaches it). Only for buffers nothing else views; one
 * no larger than node's Buffer pool may share the pool with others and is left to the GC.
 */
export function releaseBuffer(buffer: Uint8Array): void {
  if (buffer.buffer.byteLength <= Buffer.poolSize) return;
  (buffer.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }).transfer?.(0);
}

/** `bundle` is the bytes of dist/server/main.cjs (UTF-8). */
export function runBundle(bundle: Uint8Array, filename: string, require: NodeJS.Require, cachedData?: Uint8Array): LoadedBundle {
  const script = new Script(wrappedSource(bundle), { filename, cachedData });
  const fn = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} };
  fn.call(module.exports, module.exports, require, module, filename, dirname(filename));
  return { script, cacheRejected: cachedData !== undefined && script.cachedDataRejected === true };
}
