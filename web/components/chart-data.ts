/**
 * Series as views hold them (points with epoch-ms times) → uPlot's aligned columns: one shared,
 * sorted time column and one value column per series, null where a series has no point.
 */

export interface ChartPoint {
  ts: number;
  value: number | null;
}

export interface ChartSeries {
  /** Stable identity (a telemetry key). */
  key: string;
  /** Legend text. */
  label: string;
  points: readonly ChartPoint[];
  /** Shown after values in the legend (e.g. °C). */
  unit?: string;
  /** CSS colour; defaults to the theme's series colours, the primary colour first. */
  color?: string;
  /**
   * Points only, no line, in the theme's danger colour: values set apart from their series (the
   * ones flagged as not fitting the thing model), shown where they are without joining the line.
   */
  markers?: boolean;
}

export type AlignedColumns = [number[], ...(number | null)[][]];

/** A telemetry value as a chart value: numbers, numeric text and booleans (1/0); else null. */
export function toChartValue(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

function sortedPoints(points: readonly ChartPoint[]): readonly ChartPoint[] {
  for (let i = 1; i < points.length; i++) {
    if (points[i]!.ts < points[i - 1]!.ts) return [...points].sort((a, b) => a.ts - b.ts);
  }
  return points;
}

/** True when no series has a point. */
export function isEmptySeries(series: readonly ChartSeries[]): boolean {
  return series.every((s) => s.points.length === 0);
}

/**
 * The aligned columns of `series`. One series keeps its points as they are (the common case, and
 * the cheap one for 50,000 points); several are merged on the union of their times.
 */
export function alignSeries(series: readonly ChartSeries[]): AlignedColumns {
  if (series.length === 1) {
    const points = sortedPoints(series[0]!.points);
    return [points.map((p) => p.ts), points.map((p) => p.value)];
  }
  const sorted = series.map((s) => sortedPoints(s.points));
  const times = [...new Set(sorted.flatMap((points) => points.map((p) => p.ts)))].sort((a, b) => a - b);
  const index = new Map(times.map((ts, i) => [ts, i]));
  const columns = sorted.map((points) => {
    const column: (number | null)[] = new Array<number | null>(times.length).fill(null);
    for (const p of points) column[index.get(p.ts)!] = p.value;
    return column;
  });
  return [times, ...columns];
}
