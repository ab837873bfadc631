import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OldGenerationTrim, oldSpaceUsed, settleAfterStart, startOldGenerationTrim } from '../../server/lib/old-generation-trim.ts';

const MB = 1024 * 1024;

/** An old generation that grows by what the test says and drops to `live` on a full GC. */
function heap(live: number) {
  const state = { used: live, live, collections: 0 };
  const trim = new OldGenerationTrim(
    () => state.used,
    () => {
      state.collections += 1;
      state.used = state.live;
    },
    2 * MB,
  );
  return { state, trim };
}

describe('old-generation trim', () => {
  it('collects once the old generation has grown by the step since the last full GC, not before', () => {
    const { state, trim } = heap(30 * MB);
    state.used += 1.5 * MB;
    expect(trim.check()).toBe(false);
    state.used += 0.5 * MB;
    expect(trim.check()).toBe(true);
    expect(state.collections).toBe(1);
    // Measured from what the collection left, not from the start.
    state.used += 1.9 * MB;
    expect(trim.check()).toBe(false);
    state.used += 0.1 * MB;
    expect(trim.check()).toBe(true);
    expect(state.collections).toBe(2);
  });

  it('adds nothing when V8 collected on its own: a smaller old generation is the new mark', () => {
    const { state, trim } = heap(30 * MB);
    state.used = 28 * MB; // V8's own full GC in between two checks
    expect(trim.check()).toBe(false);
    state.used = 29.9 * MB;
    expect(trim.check()).toBe(false);
    state.used = 30 * MB;
    expect(trim.check()).toBe(true);
  });

  it('reads the old space of this process, and starts nothing without --expose-gc', () => {
    expect(oldSpaceUsed()).toBeGreaterThan(0);
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined');
    const stop = startOldGenerationTrim({ checkMs: 1, stepBytes: 0 });
    stop();
  });

  it('shrinks a grown young generation once after start, in a node run with the binary\'s GC flags', () => {
    // The flags of scripts/binary.ts's seaExecArgv that matter here; a start-up's allocations
    // grow the young generation first, then the settle runs with no delay.
    const script = `
      import { getHeapSpaceStatistics } from 'node:v8';
      import { settleAfterStart } from ${JSON.stringify(join(import.meta.dirname, '../../server/lib/old-generation-trim.ts'))};
      const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').physical_space_size;
      let keep = [];
      for (let i = 0; i < 2e6; i++) { keep.push({ i, s: String(i) }); if (keep.length > 200000) keep = []; }
      const before = young();
      settleAfterStart(0);
      // Right after the settle's timer, in the same pass over the timers: nothing allocates between
      // (a later read could find the young generation grown again by tsx compiling on a cold cache).
      setTimeout(() => console.log(JSON.stringify({ before, after: young() })), 0);
    `;
    const out = execFileSync(process.execPath, ['--expose-gc', '--max-semi-space-size=8', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const { before, after } = JSON.parse(out) as { before: number; after: number };
    expect(before).toBeGreaterThan(4 * MB);
    expect(after).toBeLessThan(2 * MB);
    // A child node with tsx: seconds on a busy machine.
  }, 20_000);

  it('does nothing without --expose-gc (development under tsx, the tests)', () => {
    const stop = settleAfterStart(0);
    stop();
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined');
  });
});
