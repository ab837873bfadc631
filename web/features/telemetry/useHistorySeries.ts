/** The history chart's series: one per chartable queried property, plus its flagged values as markers when asked for. */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TimeseriesValues } from '../../../server/contract/telemetry.ts';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { toChartValue, type ChartSeries } from '../../components/chart-data.ts';
import type { TimeRangeValue } from '../../components/time-range.ts';
import { isChartable } from './valueFormat.ts';

/** A query's answer, with the range and keys it was asked for (the form may have changed since). */
export interface HistoryResult {
  range: TimeRangeValue;
  keys: string[];
  values: TimeseriesValues;
}

export function useHistorySeries(
  result: HistoryResult | null,
  properties: ThingModelTsl['properties'],
  showFlagged: boolean,
): { series: ChartSeries[]; flaggedCount: number } {
  const { t } = useTranslation('telemetry');
  // Flagged values (out of range, wrong type) are kept off the line and out of the y-range, where
  // one wild reading would flatten the real data; the switch shows them as separate markers.
  return useMemo(() => {
    const out: ChartSeries[] = [];
    let flagged = 0;
    if (!result) return { series: out, flaggedCount: 0 };
    for (const key of result.keys) {
      const p = properties.find((item) => item.identifier === key);
      if (!p || !isChartable(p.functionJson.dataType)) continue;
      const dataType = p.functionJson.dataType;
      const unit = dataType.type === 'INT' || dataType.type === 'DOUBLE' ? dataType.specs.unit : undefined;
      const points = result.values[key] ?? [];
      const set = points.filter((point) => point.flag).map((point) => ({ ts: point.ts, value: toChartValue(point.value) }));
      flagged += set.length;
      out.push({ key, label: p.functionName, unit, points: points.filter((point) => !point.flag).map((point) => ({ ts: point.ts, value: toChartValue(point.value) })) });
      if (showFlagged && set.length) out.push({ key: `${key}\u0000flagged`, label: t('history.flaggedSeries', { name: p.functionName }), unit, points: set, markers: true });
    }
    return { series: out, flaggedCount: flagged };
  }, [result, properties, showFlagged, t]);
}
