/**
 * A uPlot line chart of one or more time series (telemetry history, message volume): full width of
 * its container (follows resizes), colours from the theme (light/dark, primary colour first), time
 * axis and legend as YYYY-MM-DD HH:mm:ss, an empty state, and fast enough for the 50,000 points of
 * the largest history query (no per-point React work: the data goes to uPlot's canvas).
 *
 * Import it only from lazily loaded pages: uPlot must stay out of the entry and login chunks.
 *
 * @example
 * ```tsx
 * import { TimeSeriesChart } from '../../components/TimeSeriesChart.tsx';
 * import { toChartValue } from '../../components/chart-data.ts';
 *
 * // `history` is the telemetry API's answer: { temperature: [{ ts, value }], … }
 * <TimeSeriesChart
 *   testId="history-chart"
 *   loading={loading}
 *   xRange={[range.startTs, range.endTs]}
 *   series={[{
 *     key: 'temperature',
 *     label: 'Temperature',
 *     unit: '°C',
 *     points: (history.temperature ?? []).map((p) => ({ ts: p.ts, value: toChartValue(p.value) })),
 *   }]}
 * />
 * ```
 */
import { useEffect, useMemo, useRef, type JSX, type ReactNode } from 'react';
import Empty from '@arco-design/web-react/es/Empty';
import Spin from '@arco-design/web-react/es/Spin';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/date-format.ts';
import { alignSeries, isEmptySeries, type ChartSeries } from './chart-data.ts';
import { useChartTheme, type ChartTheme } from './chart-theme.ts';
import './TimeSeriesChart.css';

export type { ChartPoint, ChartSeries } from './chart-data.ts';

export interface TimeSeriesChartProps {
  series: readonly ChartSeries[];
  /** Plot height in pixels (the legend comes below it). */
  height?: number;
  loading?: boolean;
  /** Shown instead of the chart when no series has a point. */
  emptyText?: ReactNode;
  /** Fill the area under each line (volumes, counts). */
  fill?: boolean;
  /** The time range to show (e.g. the queried one), else the data's own extent. */
  xRange?: readonly [number, number];
  /** Formats values on the y axis and in the legend. Keep it stable (module level or useCallback): a new function rebuilds the chart. */
  formatValue?: (value: number) => string;
  testId?: string;
}

/**
 * With `window.__ecChartMarks` set (the bench sets it: scripts/lib/bench-chart.ts), the chart puts
 * `performance.mark`s on its steps: `ec-chart:align-start`/`-end` around turning series into
 * uPlot's columns, `ec-chart:set-data` as it hands them to uPlot, `ec-chart:drawn` from uPlot's
 * draw hook. Off (always, for users), a step costs one property read.
 */
function mark(name: string): void {
  if ((window as { __ecChartMarks?: boolean }).__ecChartMarks === true) performance.mark(name);
}

const defaultFormat = (value: number): string =>
  Number.isInteger(value) ? String(value) : value.toFixed(Math.abs(value) >= 100 ? 1 : 2).replace(/\.?0+$/, '');

/** The colour at 12% opacity, for the area under a line. */
function translucent(color: string): string {
  const rgb = /^rgb\((.*)\)$/.exec(color);
  if (rgb) return `rgba(${rgb[1]},0.12)`;
  return /^#[0-9a-f]{6}$/i.test(color) ? `${color}1f` : color;
}

/** Room for the longest tick label, measured on the chart's own canvas. */
function axisSize(self: uPlot, values: string[] | null, axisIdx: number, cycleNum: number): number {
  const axis = self.axes[axisIdx] as uPlot.Axis & { _size?: number };
  if (cycleNum > 1 && axis._size) return axis._size;
  let size = 8 + 10;
  const longest = (values ?? []).reduce((acc, v) => (v.length > acc.length ? v : acc), '');
  if (longest) {
    self.ctx.font = (axis.font as unknown as string[] | undefined)?.[0] ?? self.ctx.font;
    size += self.ctx.measureText(longest).width / devicePixelRatio;
  }
  return Math.ceil(size);
}

function buildOptions(
  series: readonly ChartSeries[],
  theme: ChartTheme,
  size: { width: number; height: number },
  props: Pick<TimeSeriesChartProps, 'fill' | 'formatValue'> & { xRange: () => readonly [number, number] | undefined; timeLabel: string },
): uPlot.Options {
  const format = props.formatValue ?? defaultFormat;
  const axisStyle = { stroke: theme.text, font: theme.font, grid: { stroke: theme.grid, width: 1 }, ticks: { stroke: theme.grid, width: 1 } };
  return {
    ...size,
    ms: 1,
    padding: [12, 24, 0, 0],
    cursor: { points: { size: 6 } },
    hooks: { draw: [() => mark('ec-chart:drawn')] },
    scales: {
      x: {
        time: true,
        range: (_u, min, max) => {
          const fixed = props.xRange();
          if (fixed) return [fixed[0], fixed[1]];
          return min === max ? [min - 60_000, max + 60_000] : [min, max];
        },
      },
    },
    series: [
      { label: props.timeLabel, value: (_u, v) => (v === null || v === undefined ? '--' : formatDateTime(v)) },
      ...series.map((s, i) => {
        const value = (_u: uPlot, v: number | null): string => (v === null || v === undefined ? '--' : `${format(v)}${s.unit ? ` ${s.unit}` : ''}`);
        if (s.markers) {
          const color = s.color ?? theme.danger;
          return { label: s.label, stroke: color, paths: () => null, points: { show: true, size: 7, fill: color, stroke: color }, value } satisfies uPlot.Series;
        }
        const color = s.color ?? theme.series[i % theme.series.length]!;
        return {
          label: s.label,
          stroke: color,
          width: 2,
          spanGaps: true,
          fill: props.fill ? translucent(color) : undefined,
          points: { size: 5, fill: color },
          value,
        } satisfies uPlot.Series;
      }),
    ],
    axes: [
      // Two lines (date, time) so a narrow chart still gets several labelled ticks.
      { ...axisStyle, space: 110, size: 48, values: (_u, splits) => splits.map((v) => formatDateTime(v).replace(' ', '\n')) },
      { ...axisStyle, size: axisSize, values: (_u, splits) => splits.map((v) => format(v)) },
    ],
  };
}

export function TimeSeriesChart({
  series,
  height = 300,
  loading = false,
  emptyText,
  fill = false,
  xRange,
  formatValue,
  testId,
}: TimeSeriesChartProps): JSX.Element {
  const { t } = useTranslation('telemetry');
  const theme = useChartTheme();
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const range = useRef(xRange);
  range.current = xRange;
  const timeLabel = t('chart.time');
  const empty = isEmptySeries(series);
  const data = useMemo(() => {
    if (empty) return null;
    mark('ec-chart:align-start');
    const aligned = alignSeries(series);
    mark('ec-chart:align-end');
    return aligned;
  }, [series, empty]);
  // The chart is rebuilt when what it draws changes shape; new data alone only replaces the data.
  const shape = series.map((s) => `${s.key}\u0000${s.label}\u0000${s.unit ?? ''}\u0000${s.color ?? ''}\u0000${s.markers ? 'm' : ''}`).join('\u0001');
  const dataRef = useRef(data);
  dataRef.current = data;

  useEffect(() => {
    const el = host.current;
    if (!el || empty) return undefined;
    let plot: uPlot | null = null;
    const create = (width: number): void => {
      const opts = buildOptions(series, theme, { width, height }, { fill, formatValue, xRange: () => range.current, timeLabel });
      mark('ec-chart:set-data');
      plot = new uPlot(opts, (dataRef.current ?? [[]]) as uPlot.AlignedData, el);
      chart.current = plot;
    };
    if (el.clientWidth > 0) create(el.clientWidth);
    const observer = new ResizeObserver(() => {
      const width = el.clientWidth;
      if (width <= 0) return;
      if (!plot) create(width);
      else if (width !== plot.width) plot.setSize({ width, height });
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      plot?.destroy();
      if (chart.current === plot) chart.current = null;
    };
    // `series` is read through `shape` (labels, units, colours); its points arrive through the
    // data effect below, so new data never rebuilds the chart.
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- as said above.
  }, [shape, theme, height, fill, formatValue, empty, timeLabel]);

  const [rangeFrom, rangeTo] = xRange ?? [];
  useEffect(() => {
    if (!chart.current || !data) return;
    mark('ec-chart:set-data');
    chart.current.setData(data as uPlot.AlignedData, true);
  }, [data, rangeFrom, rangeTo]);

  return (
    <Spin loading={loading} block className="ec-chart__spin">
      <div className="ec-chart" data-testid={testId} data-points={data ? data[0].length : 0}>
        {empty ? (
          <div className="ec-chart__empty" style={{ minHeight: height }}>
            <Empty description={emptyText ?? t('chart.empty')} />
          </div>
        ) : (
          <div ref={host} className="ec-chart__plot" />
        )}
      </div>
    </Spin>
  );
}
