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
import Button from '@arco-design/web-react/es/Button';
import Drawer from '@arco-design/web-react/es/Drawer';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Radio from '@arco-design/web-react/es/Radio';
import Select from '@arco-design/web-react/es/Select';
import Space from '@arco-design/web-react/es/Space';
import Switch from '@arco-design/web-react/es/Switch';
import Table from '@arco-design/web-react/es/Table';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import Tag from '@arco-design/web-react/es/Tag';
import Tooltip from '@arco-design/web-react/es/Tooltip';
import IconSearch from '@arco-design/web-react/icon/react-icon/IconSearch';
import { useTranslation } from 'react-i18next';
import { HISTORY_LIMIT_MAX, telemetryRoutes, type TimeseriesValues } from '../../../server/contract/telemetry.ts';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { toChartValue, type ChartSeries } from '../../components/chart-data.ts';
import { TimeRangePicker } from '../../components/TimeRangePicker.tsx';
import { TimeSeriesChart } from '../../components/TimeSeriesChart.tsx';
import { presetRange, refreshRange, type TimeRangeValue } from '../../components/time-range.ts';
import { api } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/date-format.ts';
import { historyBlocker, historyQuery, historyRows, HISTORY_LIMIT_DEFAULT_UI, type HistoryRow } from './historyQuery.ts';
import { formatValue, isChartable, shownText } from './valueFormat.ts';

export interface HistoryDrawerProps {
  deviceId: string;
  model: ThingModelTsl;
  /** The property whose card opened the drawer (selected at first). */
  initialKey: string | null;
  visible: boolean;
  onClose: () => void;
}

type View = 'chart' | 'table';

interface Result {
  range: TimeRangeValue;
  keys: string[];
  values: TimeseriesValues;
}

export function HistoryDrawer({ deviceId, model, initialKey, visible, onClose }: HistoryDrawerProps): JSX.Element {
  const { t } = useTranslation('telemetry');
  const [range, setRange] = useState<TimeRangeValue>(() => ({ ...presetRange('1h'), agg: 'NONE' }));
  const [keys, setKeys] = useState<string[]>(initialKey ? [initialKey] : []);
  const [limit, setLimit] = useState<number | undefined>(HISTORY_LIMIT_DEFAULT_UI);
  const [view, setView] = useState<View>('chart');
  const [loading, setLoading] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
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

  // Flagged values (out of range, wrong type) are kept off the line and out of the y-range, where
  // one wild reading would flatten the real data; the switch shows them as separate markers.
  const { series, flaggedCount } = useMemo(() => {
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

  const rows = useMemo(() => (result ? historyRows(result.values) : []), [result]);
  const columns: ColumnProps<HistoryRow>[] = [
    { title: t('history.time'), dataIndex: 'ts', width: 190, render: (v: number) => formatDateTime(v) },
    {
      title: t('history.property'),
      dataIndex: 'key',
      render: (key: string) => properties.find((p) => p.identifier === key)?.functionName ?? key,
    },
    {
      title: t('history.value'),
      dataIndex: 'value',
      render: (value: unknown, row) => (
        <span>
          {shownText(formatValue(value, properties.find((p) => p.identifier === row.key)?.functionJson.dataType))}{' '}
          {row.flag ? (
            <Tooltip content={row.flag}>
              <Tag size="small" color="orangered" bordered={false}>
                {t('flagged')}
              </Tag>
            </Tooltip>
          ) : null}
        </span>
      ),
    },
  ];

  return (
    <Drawer visible={visible} width="70%" title={t('history.title')} footer={null} onCancel={onClose} unmountOnExit data-testid="history-drawer">
      <div className="ec-history">
        <TimeRangePicker value={range} onChange={setRange} withInterval withAggregation testId="history-range" />
        <Space wrap size={12}>
          <Select
            mode="multiple"
            value={keys}
            onChange={(next: string[]) => setKeys(next)}
            placeholder={t('history.keysPlaceholder')}
            aria-label={t('history.keysPlaceholder')}
            style={{ minWidth: 320 }}
            allowClear
            getPopupContainer={() => document.body}
            data-testid="history-keys"
          >
            {properties.map((p) => (
              <Select.Option key={p.identifier} value={p.identifier} data-testid={`history-key-${p.identifier}`}>
                {`${p.functionName} (${p.identifier})`}
              </Select.Option>
            ))}
          </Select>
          <InputNumber
            value={limit}
            onChange={(v) => setLimit(v ?? undefined)}
            min={1}
            max={HISTORY_LIMIT_MAX}
            precision={0}
            disabled={(range.agg ?? 'NONE') !== 'NONE'}
            prefix={t('history.limit')}
            aria-label={t('history.limit')}
            style={{ width: 200 }}
            data-testid="history-limit"
          />
          <Tooltip content={blocker ? t(blocker, { max: HISTORY_LIMIT_MAX }) : undefined} disabled={!blocker}>
            <Button type="primary" icon={<IconSearch />} loading={loading} disabled={blocker !== null} onClick={() => void query()} data-testid="history-query">
              {t('history.query')}
            </Button>
          </Tooltip>
          <Radio.Group type="button" value={view} onChange={(v: View) => setView(v)} data-testid="history-view">
            <Radio value="chart" data-testid="history-view-chart">
              {t('history.chart')}
            </Radio>
            <Radio value="table" data-testid="history-view-table">
              {t('history.table')}
            </Radio>
          </Radio.Group>
        </Space>
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
          <Table<HistoryRow>
            rowKey={(row) => `${row.key}\u0000${row.ts}`}
            columns={columns}
            data={rows}
            loading={loading}
            border={false}
            pagination={{ pageSize: 20, showTotal: true, sizeCanChange: true }}
            noDataElement={<span>{result ? t('chart.empty') : t('history.notQueried')}</span>}
            data-testid="history-table"
          />
        )}
      </div>
    </Drawer>
  );
}
