/**
 * Keeps V8's old generation near its live size under a steady load, so the gateway's RSS stays
 * flat (the soak: docs/PERFORMANCE-FINDINGS.md, "Soak: a full GC on a timer").
 *
 * Why: V8 starts its next full GC when the old generation has grown by max(40 %, 8 MB) plus the
 * young generation's capacity (another 8 MB with scripts/binary.ts's `--max-semi-space-size=8`)
 * beyond what the last one left. Under a steady load few objects survive into the old generation
 * (the telemetry writer's staged values, held for a minute), so it takes tens of minutes to get
 * there and the RSS ramps by ~16 MB, then drops. V8's memory reducer, which would collect earlier,
 * only runs when the allocation rate is low, never under load. The flags that shorten V8's own
 * step also shrink the young generation, which costs telemetry CPU at saturation (the flag tables
 * in docs/PERFORMANCE-FINDINGS.md), so instead: every `checkMs`, when the old generation holds
 * `stepBytes` more than after the last full GC, run one (`gc` needs `--expose-gc`, one of the
 * binary's flags). Each costs one full-GC pause (a few ms to tens of ms for a heap of ~40 MB) a
 * minute or less; when V8 collects on its own (a busier gateway), the old generation shrinks back
 * and nothing is added.
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
 * Starts the trim when the process has `gc` (node `--expose-gc`, as the binary runs); without it
 * (development under tsx, the tests) nothing runs. Returns the function that stops it.
 */
export function startOldGenerationTrim(options: OldGenerationTrimOptions = OLD_GENERATION_TRIM): () => void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') return () => {};
  const trim = new OldGenerationTrim(oldSpaceUsed, gc, options.stepBytes);
  const timer = setInterval(() => trim.check(), options.checkMs);
  timer.unref();
  return () => clearInterval(timer);
}
