/**
 * History trend of a device's properties: time range (quick or custom),
 * aggregation and its period, the properties to query (required first: the query button stays
 * disabled and says why), at most 50,000 points; a uPlot chart or a table of the values. Opened from
 * a property's card it queries at once. Values flagged as not fitting the model stay off the chart's
 * line and y-range unless asked for (then drawn as markers); the table marks them. Loaded on demand
 * with uPlot, so the data tab stays light.
 */
import { useEffect, useMemo, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Drawer from '@arco-design/web-react/es/Drawer';
import Switch from '@arco-design/web-react/es/Switch';
import { useTranslation } from 'react-i18next';
import { HISTORY_LIMIT_MAX, telemetryRoutes } from '../../../server/contract/telemetry.ts';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { TimeRangePicker } from '../../components/TimeRangePicker.tsx';
import { TimeSeriesChart } from '../../components/TimeSeriesChart.tsx';
import { presetRange, refreshRange, type TimeRangeValue } from '../../components/time-range.ts';
import { api } from '../../lib/api-client.ts';
import { historyBlocker, historyQuery, historyRows, HISTORY_LIMIT_DEFAULT_UI } from './historyQuery.ts';
import { HistoryTable } from './HistoryTable.tsx';
import { HistoryToolbar, type HistoryView } from './HistoryToolbar.tsx';
import { useHistorySeries, type HistoryResult } from './useHistorySeries.ts';

export interface HistoryDrawerProps {
  deviceId: string;
  model: ThingModelTsl;
  /** The property whose card opened the drawer (selected at first). */
  initialKey: string | null;
  visible: boolean;
  onClose: () => void;
}

export function HistoryDrawer({ deviceId, model, initialKey, visible, onClose }: HistoryDrawerProps): JSX.Element {
  const { t } = useTranslation('telemetry');
  const [range, setRange] = useState<TimeRangeValue>(() => ({ ...presetRange('1h'), agg: 'NONE' }));
  const [keys, setKeys] = useState<string[]>(initialKey ? [initialKey] : []);
  const [limit, setLimit] = useState<number | undefined>(HISTORY_LIMIT_DEFAULT_UI);
  const [view, setView] = useState<HistoryView>('chart');
  const [loading, setLoading] = useState(false);
  const [result, setResult] = useState<HistoryResult | null>(null);
  const [showFlagged, setShowFlagged] = useState(false);
  const properties = model.properties;
  const blocker = historyBlocker(keys, range, limit);

  const query = async (): Promise<void> => {
    if (blocker) return;
    // A quick range means "up to now": it ends when the query runs.
    const current = refreshRange(range);
    setRange(current);
    setLoading(true);
    try {
      const values = await api(telemetryRoutes.timeseries, { params: { id: deviceId }, query: historyQuery(keys, current, limit!) });
      setResult({ range: current, keys: [...keys], values });
    } catch {
      // the client showed why
    } finally {
      setLoading(false);
    }
  };

  // The drawer opened from a property's card: its history shows at once, as it was asked for.
  useEffect(() => {
    if (initialKey) void query();
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- once, when the drawer mounts (it unmounts on close).
  }, []);

  const { series, flaggedCount } = useHistorySeries(result, properties, showFlagged);

  const rows = useMemo(() => (result ? historyRows(result.values) : []), [result]);

  return (
    <Drawer visible={visible} width="70%" title={t('history.title')} footer={null} onCancel={onClose} unmountOnExit data-testid="history-drawer">
      <div className="ec-history">
        <TimeRangePicker value={range} onChange={setRange} withInterval withAggregation testId="history-range" />
        <HistoryToolbar
          properties={properties}
          keys={keys}
          onKeys={setKeys}
          limit={limit}
          onLimit={setLimit}
          aggregated={(range.agg ?? 'NONE') !== 'NONE'}
          blocker={blocker}
          loading={loading}
          onQuery={() => void query()}
          view={view}
          onView={setView}
        />
        {blocker ? <Alert type="info" content={t(blocker, { max: HISTORY_LIMIT_MAX })} data-testid="history-blocker" /> : null}
        {view === 'chart' && flaggedCount > 0 ? (
          <label className="ec-history__flagged">
            <Switch size="small" checked={showFlagged} onChange={setShowFlagged} data-testid="history-show-flagged" />
            <span>{t('history.showFlagged', { count: flaggedCount })}</span>
          </label>
        ) : null}
        {view === 'chart' ? (
          <TimeSeriesChart
            testId="history-chart"
            loading={loading}
            series={series}
            xRange={result ? [result.range.startTs, result.range.endTs] : undefined}
            emptyText={result ? undefined : t('history.notQueried')}
            height={360}
          />
        ) : (
          <HistoryTable rows={rows} properties={properties} loading={loading} queried={result !== null} />
        )}
      </div>
    </Drawer>
  );
}
