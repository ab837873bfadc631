/** The schedule editor: how often, which month days or weekdays, which hours, in which time zone. */
import { useMemo, type JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Select from '@arco-design/web-react/es/Select';
import { useTranslation } from 'react-i18next';
import { reportFrequencies } from '../../../server/contract/report.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { requiredRule } from '../../lib/form-rules.ts';

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

export function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', current, ...known])];
}

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function ScheduleFields(): JSX.Element {
  const { t } = useTranslation('reports');
  const { form } = Form.useFormContext();
  const frequency = Form.useWatch('frequency', form) as string | undefined;
  const zones = useMemo(() => timeZones(browserTimeZone()), []);
  const days = useMemo(() => range(1, 31).map((d) => ({ value: d, label: t('schedule.monthDay', { day: d }) })), [t]);
  const weekdays = useMemo(() => range(1, 7).map((d) => ({ value: d, label: t(`schedule.weekday.${d}` as 'schedule.weekday.1') })), [t]);
  const hours = useMemo(() => range(0, 23).map((h) => ({ value: h, label: `${String(h).padStart(2, '0')}:00` })), []);
  return (
    <>
      <Form.Item field="frequency" label={t('schedule.frequency')} rules={[requiredRule()]}>
        <EnumSelect ns="reports" group="frequency" values={reportFrequencies} testId="report-form-frequency" />
      </Form.Item>
      {frequency === 'MONTHLY' ? (
        <Form.Item field="monthDays" label={t('schedule.monthDays')} rules={[requiredRule()]} extra={t('schedule.monthDaysHint')}>
          <Select mode="multiple" options={days} allowClear aria-label={t('schedule.monthDays')} data-testid="report-form-month-days" />
        </Form.Item>
      ) : null}
      {frequency === 'WEEKLY' ? (
        <Form.Item field="weekdays" label={t('schedule.weekdays')} rules={[requiredRule()]}>
          <Select mode="multiple" options={weekdays} allowClear aria-label={t('schedule.weekdays')} data-testid="report-form-weekdays" />
        </Form.Item>
      ) : null}
      <Form.Item field="hours" label={t('schedule.hours')} rules={[requiredRule()]}>
        <Select mode="multiple" options={hours} allowClear aria-label={t('schedule.hours')} data-testid="report-form-hours" />
      </Form.Item>
      <Form.Item field="timeZone" label={t('schedule.timeZone')} rules={[requiredRule()]}>
        <Select showSearch options={zones} aria-label={t('schedule.timeZone')} data-testid="report-form-time-zone" />
      </Form.Item>
    </>
  );
}
