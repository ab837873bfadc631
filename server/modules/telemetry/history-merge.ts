/**
 * Merging two ts-ordered streams of one series' values where one holds the newer writes: what the
 * compactor does with rows over block values, and the staging move with staged values over rows
 * and blocks (staging-mover.ts).
 */
import type { HistoryRow } from './telemetry-rows.ts';

/** `older` and `newer` (each ts ascending, distinct) as one stream; of two values with one ts the newer stays. */
export function mergeNewer(older: readonly HistoryRow[], newer: readonly HistoryRow[]): HistoryRow[] {
  const out: HistoryRow[] = [];
  let r = 0;
  for (const v of older) {
    while (r < newer.length && newer[r]!.ts < v.ts) out.push(newer[r++]!);
    if (r < newer.length && newer[r]!.ts === v.ts) continue;
    out.push(v);
  }
  while (r < newer.length) out.push(newer[r++]!);
  return out;
}

/** A UTC day's start: blocks hold one day at most, so a daily aggregate reads whole blocks' summaries. */
export const DAY_MS = 86_400_000;

export function dayOf(ts: number): number {
  return Math.floor(ts / DAY_MS) * DAY_MS;
}

/** Values per block at most, unless tuned (`tuning.compactor.blockPoints`). */
export const BLOCK_POINTS = 8192;
