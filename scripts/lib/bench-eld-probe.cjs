/**
 * Preloaded into the measured binary by the soak (NODE_OPTIONS=--require, which the SEA honours):
 * the event loop's delay from perf_hooks, one line on stderr every 10 s, read back by
 * scripts/lib/bench-soak.ts. Nothing else of the gateway changes.
 */
const { monitorEventLoopDelay } = require('node:perf_hooks');

const RESOLUTION_MS = 10;
const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
histogram.enable();
setInterval(() => {
  // The histogram counts the sampling interval itself: what is over it is the delay.
  const over = (ns) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
  const line = { p50: over(histogram.percentile(50)), p99: over(histogram.percentile(99)), max: over(histogram.max) };
  process.stderr.write(`EVENT-LOOP-DELAY ${JSON.stringify(line)}\n`);
  histogram.reset();
}, 10_000).unref();
