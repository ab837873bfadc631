/**
 * Preloaded into the measured binary by the soak (NODE_OPTIONS=--require, which the SEA honours):
 * the event loop's delay from perf_hooks, one line on stderr every 10 s, and what the memory is
 * made of once a minute (process.memoryUsage and V8's heap spaces, per thread: the history worker
 * has a heap of its own, and the full GCs of that minute), read back by scripts/lib/bench-soak.ts. Nothing else of the gateway changes,
 * unless BENCH_HEAP_SNAPSHOTS names a directory and minutes ("dir:3,11"): the main thread then
 * writes a heap snapshot at each (after a full GC: what is live), to be compared.
 */
const { monitorEventLoopDelay, PerformanceObserver, constants } = require('node:perf_hooks');
const { getHeapSpaceStatistics, writeHeapSnapshot } = require('node:v8');
const { join } = require('node:path');
const { isMainThread, threadId } = require('node:worker_threads');

const RESOLUTION_MS = 10;
const MB = 1024 * 1024;
const round = (bytes) => Math.round((bytes / MB) * 10) / 10;

if (isMainThread) {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  setInterval(() => {
    // The histogram counts the sampling interval itself: what is over it is the delay.
    const over = (ns) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
    const line = { p50: over(histogram.percentile(50)), p99: over(histogram.percentile(99)), max: over(histogram.max) };
    process.stderr.write(`EVENT-LOOP-DELAY ${JSON.stringify(line)}\n`);
    histogram.reset();
  }, 10_000).unref();
}

// Full GCs (mark-compact) per minute and the time they took on this thread: V8's own and
// server/lib/old-generation-trim.ts's alike.
let fullGcs = 0;
let fullGcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
      fullGcs += 1;
      fullGcMs += e.duration;
    }
  }
}).observe({ entryTypes: ['gc'] });

setInterval(() => {
  const m = process.memoryUsage();
  const spaces = {};
  for (const s of getHeapSpaceStatistics()) spaces[s.space_name.replace(/_space$/, '')] = round(s.physical_space_size);
  const line = { thread: threadId, heapTotal: round(m.heapTotal), heapUsed: round(m.heapUsed), external: round(m.external), arrayBuffers: round(m.arrayBuffers), spaces, fullGcs, fullGcMs: Math.round(fullGcMs) };
  fullGcs = 0;
  fullGcMs = 0;
  if (isMainThread) line.rss = round(m.rss);
  process.stderr.write(`MEMORY ${JSON.stringify(line)}\n`);
}, 60_000).unref();

const snapshots = process.env.BENCH_HEAP_SNAPSHOTS;
if (isMainThread && snapshots) {
  const [dir, minutes] = snapshots.split(':');
  for (const m of minutes.split(',').map(Number)) {
    setTimeout(() => {
      const file = writeHeapSnapshot(join(dir, `soak-${m}min.heapsnapshot`));
      process.stderr.write(`HEAP-SNAPSHOT ${file}\n`);
    }, m * 60_000).unref();
  }
}
