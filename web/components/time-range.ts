/**
 * Time ranges of charts and history queries (workbench, history): the quick ranges
 * with their bucket intervals (1 hour / 5 min, 1 day / 30 min, 7 days / 2 h, 30 days / 1 day, as
 * the workbench contract declares them), custom ranges, and the "query period" options (1 second
 * to 30 days) offered as aggregation intervals. Pure, so views and tests share it.
 */
import { fixedRanges, type MessageRange } from '../../server/contract/workbench.ts';
import { HISTORY_LIMIT_MAX, type Aggregation } from '../../server/contract/telemetry.ts';

export type TimeRangePreset = Exclude<MessageRange, 'custom'>;
export type TimeRangeKind = MessageRange;

export const timeRangePresets = Object.keys(fixedRanges) as TimeRangePreset[];

export interface TimeRangeValue {
  /** A quick range, or `custom`. */
  range: TimeRangeKind;
  startTs: number;
  endTs: number;
  /** Aggregation interval (bucket width) in milliseconds. */
  interval: number;
  /** Present when the picker offers an aggregation. */
  agg?: Aggregation;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export type PeriodUnit = 'second' | 'minute' | 'hour' | 'day';
export interface QueryPeriod {
  ms: number;
  count: number;
  unit: PeriodUnit;
}

const unitMs: Record<PeriodUnit, number> = { second: SECOND, minute: MINUTE, hour: HOUR, day: DAY };
const period = (count: number, unit: PeriodUnit): QueryPeriod => ({ ms: count * unitMs[unit], count, unit });

/** The query period options, from 1 second to 30 days. */
export const queryPeriods: readonly QueryPeriod[] = [
  period(1, 'second'),
  period(5, 'second'),
  period(10, 'second'),
  period(15, 'second'),
  period(30, 'second'),
  period(1, 'minute'),
  period(2, 'minute'),
  period(5, 'minute'),
  period(10, 'minute'),
  period(15, 'minute'),
  period(30, 'minute'),
  period(1, 'hour'),
  period(2, 'hour'),
  period(5, 'hour'),
  period(10, 'hour'),
  period(12, 'hour'),
  period(1, 'day'),
  period(7, 'day'),
  period(30, 'day'),
];

/** The largest whole unit of `ms` as a period (for labels of intervals the server chose). */
export function periodOf(ms: number): QueryPeriod {
  const known = queryPeriods.find((p) => p.ms === ms);
  if (known) return known;
  for (const unit of ['day', 'hour', 'minute'] as const) {
    if (ms >= unitMs[unit] && ms % unitMs[unit] === 0) return period(ms / unitMs[unit], unit);
  }
  return period(Math.max(1, Math.round(ms / SECOND)), 'second');
}

/**
 * Periods that make sense for a span: not longer than the span, and not so short that the span
 * holds more buckets than a history query may answer (50,000).
 */
export function periodsFor(spanMs: number): QueryPeriod[] {
  const usable = queryPeriods.filter((p) => p.ms <= Math.max(spanMs, SECOND) && spanMs / p.ms <= HISTORY_LIMIT_MAX);
  return usable.length ? usable : [queryPeriods[queryPeriods.length - 1]!];
}

/** The shortest usable period giving at most `maxBuckets` buckets over the span. */
export function suggestInterval(spanMs: number, maxBuckets = 200): number {
  const usable = periodsFor(spanMs);
  return (usable.find((p) => spanMs / p.ms <= maxBuckets) ?? usable[usable.length - 1]!).ms;
}

/** A quick range ending now, with its bucket interval. */
export function presetRange(preset: TimeRangePreset, now = Date.now()): TimeRangeValue {
  const { spanMs, intervalMs } = fixedRanges[preset];
  return { range: preset, startTs: now - spanMs, endTs: now, interval: intervalMs };
}

/** A custom range with a suggested interval (start and end in either order). */
export function customRange(a: number, b: number): TimeRangeValue {
  const startTs = Math.min(a, b);
  const endTs = Math.max(a, b);
  return { range: 'custom', startTs, endTs, interval: suggestInterval(endTs - startTs) };
}

/** The same choice brought up to date: a quick range ends now again; a custom one stays. */
export function refreshRange(value: TimeRangeValue, now = Date.now()): TimeRangeValue {
  if (value.range === 'custom') return value;
  return { ...presetRange(value.range, now), interval: value.interval, ...(value.agg ? { agg: value.agg } : {}) };
}
