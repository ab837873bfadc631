/**
 * The history trend's query: the telemetry REST call's parameters (at most HISTORY_LIMIT_MAX
 * records), or why the query cannot run yet (its criteria must be filled in first). Pure.
 */
import { HISTORY_LIMIT_MAX, type TimeseriesPoint, type TimeseriesQuery } from '../../../server/contract/telemetry.ts';
import type { TimeRangeValue } from '../../components/time-range.ts';

export const HISTORY_LIMIT_DEFAULT_UI = 1000;

/** Why the query button is disabled (a key of the telemetry namespace), or null when it may run. */
export type HistoryBlocker = 'history.needKeys' | 'history.needRange' | 'history.limitRange' | null;

export function historyBlocker(keys: readonly string[], range: TimeRangeValue, limit: number | undefined): HistoryBlocker {
  if (keys.length === 0) return 'history.needKeys';
  if (!(range.endTs > range.startTs)) return 'history.needRange';
  if (limit === undefined || !Number.isInteger(limit) || limit < 1 || limit > HISTORY_LIMIT_MAX) return 'history.limitRange';
  return null;
}

export function historyQuery(keys: readonly string[], range: TimeRangeValue, limit: number): TimeseriesQuery {
  const agg = range.agg ?? 'NONE';
  return {
    keys: keys.join(','),
    startTs: range.startTs,
    endTs: range.endTs,
    agg,
    // Typed values (the REST default is ThingsBoard's text).
    useStrictDataTypes: true,
    ...(agg === 'NONE' ? { limit, orderBy: 'ASC' } : { interval: range.interval, limit: HISTORY_LIMIT_MAX }),
  };
}

export interface HistoryRow {
  ts: number;
  key: string;
  value: unknown;
  flag?: string;
}

/** The answer as table rows, newest first. */
export function historyRows(answer: Record<string, readonly TimeseriesPoint[]>): HistoryRow[] {
  const rows: HistoryRow[] = [];
  for (const [key, points] of Object.entries(answer)) {
    for (const p of points) rows.push({ ts: p.ts, key, value: p.value, ...(p.flag ? { flag: p.flag } : {}) });
  }
  return rows.sort((a, b) => b.ts - a.ts || a.key.localeCompare(b.key));
}
