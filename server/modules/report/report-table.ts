/**
 * A run's table: the period's history of every device/key pair of a report, one row per time (raw
 * points, or one bucket of the aggregation) and one column per pair, read through the telemetry
 * service's public history query (server/contract/telemetry.ts), never its tables.
 */
import { HISTORY_LIMIT_MAX, type TimeseriesQuery, type TimeseriesValues } from '../../contract/telemetry.ts';
import { REPORT_ROWS_MAX, type Report, type ReportSeries } from '../../contract/report.ts';

/** The telemetry service's history query; throws for a device that no longer exists. */
export type HistoryQuery = (deviceId: string, query: TimeseriesQuery) => TimeseriesValues;

export type Cell = number | string | boolean | null;

export interface ReportTable {
  /** Row times (epoch ms), ascending; a bucket is stamped with its start. */
  times: number[];
  /** `cells[row][series]`. */
  cells: Cell[][];
  /** Pairs whose device was deleted since the report was saved. */
  missing: ReportSeries[];
  truncated: boolean;
}

function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/** Raw points of one key in [startTs, endTs), ascending, at most `max`, read a page at a time. */
function rawPoints(history: HistoryQuery, s: ReportSeries, startTs: number, endTs: number, max: number): { ts: number; value: unknown }[] {
  const points: { ts: number; value: unknown }[] = [];
  let from = startTs;
  while (points.length < max && from < endTs) {
    const limit = Math.min(HISTORY_LIMIT_MAX, max - points.length);
    const page = history(s.deviceId, { keys: s.key, startTs: from, endTs, limit, orderBy: 'ASC', agg: 'NONE', useStrictDataTypes: true })[s.key] ?? [];
    points.push(...page);
    if (page.length < limit) break;
    from = page[page.length - 1]!.ts + 1;
  }
  return points;
}

function seriesPoints(history: HistoryQuery, report: Report, s: ReportSeries, startTs: number, endTs: number): { ts: number; value: unknown }[] {
  if (report.aggregation === 'NONE') return rawPoints(history, s, startTs, endTs, REPORT_ROWS_MAX + 1);
  const interval = report.interval!;
  const buckets = history(s.deviceId, { keys: s.key, startTs, endTs, agg: report.aggregation, interval, limit: HISTORY_LIMIT_MAX, orderBy: 'ASC', useStrictDataTypes: true })[s.key] ?? [];
  // The history stamps a bucket with its middle; a report row names the bucket's start.
  return buckets.map((b) => ({ ts: startTs + Math.floor((b.ts - startTs) / interval) * interval, value: b.value }));
}

/** The report's table over [startTs, endTs). */
export function reportTable(history: HistoryQuery, report: Report, startTs: number, endTs: number): ReportTable {
  const rows = new Map<number, Cell[]>();
  const missing: ReportSeries[] = [];
  report.series.forEach((s, i) => {
    let points: { ts: number; value: unknown }[];
    try {
      points = seriesPoints(history, report, s, startTs, endTs);
    } catch (err) {
      if ((err as { key?: string }).key !== 'error.notFound') throw err;
      missing.push(s);
      return;
    }
    for (const p of points) {
      let row = rows.get(p.ts);
      if (!row) rows.set(p.ts, (row = new Array<Cell>(report.series.length).fill(null)));
      row[i] = cellOf(p.value);
    }
  });
  const times = [...rows.keys()].sort((a, b) => a - b);
  const truncated = times.length > REPORT_ROWS_MAX;
  if (truncated) times.length = REPORT_ROWS_MAX;
  return { times, cells: times.map((t) => rows.get(t)!), missing, truncated };
}
