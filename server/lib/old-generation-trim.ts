/**
 * Keeps V8's old generation near its live size under a steady load, so the gateway's RSS stays
 * flat (the soak: docs/PERFORMANCE-FINDINGS.md, "Soak: a full GC when the old generation grew").
 *
 * Why: V8 starts its next full GC only when the old generation has grown by max(40 %, 8 MB) plus
 * the young generation's capacity (another 8 MB with scripts/binary.ts's `--max-semi-space-size=8`)
 * beyond what the last one left, and its memory reducer, which would collect earlier, waits for a
 * low allocation rate, which never comes under load. So the RSS can stand up to ~16 MB above the
 * live heap and move by that much whenever a full GC falls (the soak before this stepped by ~8 MB
 * and spiked by 8-10 MB around full GCs). The flags that shorten V8's own step also shrink the
 * young generation, which costs telemetry CPU at saturation (the flag tables in the same file), so
 * instead: every `checkMs`, when the old generation holds `stepBytes` more than after the last full
 * GC (V8's or ours), run one (`gc` needs `--expose-gc`, one of the binary's flags). In the
 * 25-minute soak the main thread then did 108 full GCs (V8's and these), 977 ms in all (0.07 % of
 * a core), with the event loop's p99 unchanged.
 */
import { getHeapSpaceStatistics } from 'node:v8';

export interface OldGenerationTrimOptions {
  /** How often the old generation's size is looked at (ms). */
  checkMs: number;
  /** Growth since the last full GC that calls for one (bytes). */
  stepBytes: number;
}

export const OLD_GENERATION_TRIM: OldGenerationTrimOptions = { checkMs: 30_000, stepBytes: 2 * 1024 * 1024 };

/** Bytes in V8's old space (what the old generation holds, garbage until the next full GC included). */
export function oldSpaceUsed(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? 0;
}

/**
 * The decision on its own: `check()` runs `collect` when `used()` has grown by `stepBytes` since
 * the size after the last full GC (its own or V8's: a size below the mark is taken as the new mark).
 * Returns whether it collected.
 */
export class OldGenerationTrim {
  private mark: number;

  constructor(
    private readonly used: () => number,
    private readonly collect: () => void,
    private readonly stepBytes: number,
  ) {
    this.mark = used();
  }

  check(): boolean {
    const now = this.used();
    if (now - this.mark < this.stepBytes) {
      this.mark = Math.min(this.mark, now);
      return false;
    }
    this.collect();
    this.mark = this.used();
    return true;
  }
}

/**
 * After start-up, V8 keeps the young generation at the size start-up's allocations grew it to:
 * a semi-space pair of up to 2 × 8 MB (`--max-semi-space-size=8`) holding ~0.2 MB, for as long
 * as the gateway idles, since only a scavenge at a low allocation rate would shrink it and an
 * idle gateway allocates too little to run one. A "last resort" GC (V8's gc extension, node 24:
 * mark-compact with memory reduction) shrinks and uncommits it and returns start-up's garbage:
 * ~9 MB of RSS in docs/PERFORMANCE-FINDINGS.md, "The young generation after start-up". Once, after
 * `delayMs`, so it falls after the first requests rather than delaying them; a load that needs a
 * larger young generation grows it again (that is what the 1,000-device bench row measures).
 */
export const START_UP_SETTLE_MS = 1_000;

type Gc = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/** V8's `gc` when node runs with `--expose-gc` (the binary does); null under tsx (development, tests). */
function exposedGc(): Gc | null {
  const gc = (globalThis as { gc?: Gc }).gc;
  return typeof gc === 'function' ? gc : null;
}

export function settleAfterStart(delayMs: number = START_UP_SETTLE_MS): () => void {
  const gc = exposedGc();
  if (!gc) return () => {};
  const timer = setTimeout(() => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' }), delayMs);
  timer.unref();
  return () => clearTimeout(timer);
}

/**
 * Starts the trim when the process has `gc` (node `--expose-gc`, as the binary runs); without it
 * (development under tsx, the tests) nothing runs. Returns the function that stops it.
 */
export function startOldGenerationTrim(options: OldGenerationTrimOptions = OLD_GENERATION_TRIM): () => void {
  const gc = exposedGc();
  if (!gc) return () => {};
  const trim = new OldGenerationTrim(oldSpaceUsed, () => gc(), options.stepBytes);
  const timer = setInterval(() => trim.check(), options.checkMs);
  timer.unref();
  return () => clearInterval(timer);
}
