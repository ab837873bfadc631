/**
 * A chart widget: the bound key's last hour (from the device's history, or the share link's own
 * history call) with each newer live value appended as it arrives.
 */
import { useEffect, useMemo, useState, type JSX } from 'react';
import type { Widget } from '../../../server/contract/visualization.ts';
import { TimeSeriesChart } from '../../components/TimeSeriesChart.tsx';
import { toChartValue, type ChartPoint } from '../../components/chart-data.ts';
import type { LatestValue } from '../../lib/use-live.ts';
import type { ValueSource } from './useBindingValues.ts';
import { getHistory, getSharedHistory } from './visualizationApi.ts';

const HOUR_MS = 60 * 60 * 1000;
/** Points kept while live values keep coming: a day at one a second would slow the canvas. */
const POINTS_MAX = 2000;

export function WidgetChart(props: { widget: Widget; latest: LatestValue | undefined; source: ValueSource | null; height: number }): JSX.Element {
  const { widget, latest, source, height } = props;
  const [points, setPoints] = useState<ChartPoint[]>([]);
  const binding = widget.binding;
  const shareToken = source?.kind === 'share' ? source.shareToken : null;

  useEffect(() => {
    setPoints([]);
    if (!binding || !source) return;
    const startTs = Date.now() - HOUR_MS;
    const load = shareToken ? getSharedHistory(shareToken, { deviceId: binding.deviceId, key: binding.key, startTs }) : getHistory(binding.deviceId, binding.key, startTs);
    let stopped = false;
    load
      .then((history) => {
        if (!stopped) setPoints((live) => [...history.map((p) => ({ ts: p.ts, value: toChartValue(p.value) })), ...live]);
      })
      // A history the link or the user may not read leaves the live points alone.
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- the source's identity changes each render; its kind and token say all.
  }, [binding?.deviceId, binding?.key, source?.kind, shareToken]);

  useEffect(() => {
    if (!latest) return;
    setPoints((list) => (list.length && list[list.length - 1]!.ts >= latest.ts ? list : [...list, { ts: latest.ts, value: toChartValue(latest.value) }].slice(-POINTS_MAX)));
  }, [latest]);

  const series = useMemo(() => [{ key: binding?.key ?? 'value', label: String(widget.props.title ?? binding?.key ?? ''), unit: String(widget.props.unit ?? ''), points }], [binding?.key, widget.props.title, widget.props.unit, points]);
  return <TimeSeriesChart series={series} height={Math.max(height, 60)} testId={`vis-chart-${widget.id}`} />;
}
