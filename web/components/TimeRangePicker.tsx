/**
 * Quick ranges (1 hour, 1 day, 7 days, 30 days, each with its bucket interval) or a custom range
 * picked with Arco's RangePicker, optionally with the "query period" (aggregation interval, 1 second
 * to 30 days) and the aggregation (MIN, MAX, AVG, SUM, COUNT, NONE). Controlled: it reports
 * `{ range, startTs, endTs, interval, agg? }` through `onChange`.
 *
 * @example
 * ```tsx
 * import { TimeRangePicker } from '../../components/TimeRangePicker.tsx';
 * import { presetRange, type TimeRangeValue } from '../../components/time-range.ts';
 *
 * const [range, setRange] = useState<TimeRangeValue>(() => ({ ...presetRange('1d'), agg: 'AVG' }));
 * <TimeRangePicker value={range} onChange={setRange} withInterval withAggregation testId="history-range" />
 * // then query: api(telemetryRoutes.timeseries, { params: { id }, query: {
 * //   keys, startTs: range.startTs, endTs: range.endTs, interval: range.interval, agg: range.agg, limit: HISTORY_LIMIT_MAX } })
 * ```
 */
import { useMemo, type JSX } from 'react';
import DatePicker from '@arco-design/web-react/es/DatePicker';
import Radio from '@arco-design/web-react/es/Radio';
import Select from '@arco-design/web-react/es/Select';
import Space from '@arco-design/web-react/es/Space';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { aggregations, type Aggregation } from '../../server/contract/telemetry.ts';
import { DATE_TIME_FORMAT } from '../lib/date-format.ts';
import { customRange, periodsFor, presetRange, timeRangePresets, type QueryPeriod, type TimeRangeKind, type TimeRangeValue } from './time-range.ts';

export interface TimeRangePickerProps {
  value: TimeRangeValue;
  onChange: (value: TimeRangeValue) => void;
  /** Offer the query period (aggregation interval). */
  withInterval?: boolean;
  /** Offer the aggregation; NONE disables the interval (raw points). */
  withAggregation?: boolean;
  disabled?: boolean;
  /** Prefix of the data-testids: `<testId>-<range>`, `<testId>-custom-picker`, `<testId>-interval`, `<testId>-agg`. */
  testId?: string;
}

/** "5 minutes" / "5分钟" for a query period. */
export function usePeriodLabel(): (p: QueryPeriod) => string {
  const { t } = useTranslation('telemetry');
  return (p) => t(`period.${p.unit}`, { count: p.count });
}

export function TimeRangePicker({
  value,
  onChange,
  withInterval = false,
  withAggregation = false,
  disabled = false,
  testId = 'time-range',
}: TimeRangePickerProps): JSX.Element {
  const { t } = useTranslation('telemetry');
  const periodLabel = usePeriodLabel();
  const periods = useMemo(() => periodsFor(value.endTs - value.startTs), [value.startTs, value.endTs]);
  const keep = (next: TimeRangeValue): TimeRangeValue => (value.agg ? { ...next, agg: value.agg } : next);

  const pickRange = (range: TimeRangeKind): void => {
    if (range === 'custom') onChange(keep({ ...value, range: 'custom' }));
    else onChange(keep(presetRange(range)));
  };

  const pickDates = (dates: Dayjs[] | undefined): void => {
    const [start, end] = dates ?? [];
    if (!start || !end) return;
    onChange(keep(customRange(start.valueOf(), end.valueOf())));
  };

  return (
    <Space wrap size={12} className="ec-time-range" data-testid={testId}>
      <Radio.Group type="button" value={value.range} onChange={pickRange} disabled={disabled}>
        {[...timeRangePresets, 'custom' as const].map((range) => (
          <Radio key={range} value={range} data-testid={`${testId}-${range}`}>
            {t(`range.${range}`)}
          </Radio>
        ))}
      </Radio.Group>
      {value.range === 'custom' ? (
        <DatePicker.RangePicker
          showTime
          format={DATE_TIME_FORMAT}
          disabled={disabled}
          allowClear={false}
          value={[dayjs(value.startTs), dayjs(value.endTs)]}
          disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
          onChange={(_strings, dates) => pickDates(dates)}
          style={{ width: 380 }}
          data-testid={`${testId}-custom-picker`}
        />
      ) : null}
      {withAggregation ? (
        <Select
          value={value.agg ?? 'AVG'}
          onChange={(agg: Aggregation) => onChange({ ...value, agg })}
          disabled={disabled}
          // Sized to its label: "Aggregation  None (raw values)" does not fit a fixed 150 px.
          style={{ width: 'auto', minWidth: 150 }}
          prefix={t('aggregation.label')}
          data-testid={`${testId}-agg`}
          options={aggregations.map((agg) => ({ value: agg, label: t(`aggregation.${agg}`) }))}
        />
      ) : null}
      {withInterval ? (
        <Select
          value={value.interval}
          onChange={(interval: number) => onChange({ ...value, interval })}
          disabled={disabled || value.agg === 'NONE'}
          style={{ width: 'auto', minWidth: 170 }}
          prefix={t('period.label')}
          data-testid={`${testId}-interval`}
          options={periods.map((p) => ({ value: p.ms, label: periodLabel(p) }))}
        />
      ) : null}
    </Space>
  );
}
