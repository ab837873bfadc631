/** Add or edit a report: name, organization, device/key pairs, aggregation and schedule. */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Message from '@arco-design/web-react/es/Message';
import Switch from '@arco-design/web-react/es/Switch';
import { useTranslation } from 'react-i18next';
import {
  REPORT_INTERVAL_MAX,
  REPORT_INTERVAL_MIN,
  REPORT_NAME_MAX,
  reportAggregations,
  type Report,
  type ReportAggregation,
  type ReportBody,
  type ReportFrequency,
  type ReportSeries,
} from '../../../server/contract/report.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { FormDrawer } from '../../components/FormDrawer.tsx';
import { requiredRule } from '../../lib/form-rules.ts';
import { OrganizationTreeSelect } from '../organization/OrganizationTreeSelect.tsx';
import { createReport, updateReport } from './reportApi.ts';
import { SeriesField } from './SeriesField.tsx';
import { browserTimeZone, ScheduleFields } from './ScheduleFields.tsx';
import './report.css';

interface ReportValues {
  name: string;
  organizationId?: string;
  series: Partial<ReportSeries>[];
  aggregation: ReportAggregation;
  intervalMinutes?: number;
  frequency: ReportFrequency;
  monthDays?: number[];
  weekdays?: number[];
  hours: number[];
  timeZone: string;
  enabled: boolean;
}

const fields = ['name', 'organizationId', 'series', 'aggregation', 'intervalMinutes', 'frequency', 'monthDays', 'weekdays', 'hours', 'timeZone', 'enabled'] as const;

function valuesOf(r: Report | null): Partial<ReportValues> {
  if (!r) return { series: [{}], aggregation: 'AVG', intervalMinutes: 60, frequency: 'DAILY', hours: [0], timeZone: browserTimeZone(), enabled: true };
  return {
    name: r.name,
    organizationId: r.organizationId ?? undefined,
    series: r.series,
    aggregation: r.aggregation,
    intervalMinutes: r.interval === undefined ? 60 : r.interval / 60_000,
    frequency: r.schedule.frequency,
    monthDays: r.schedule.monthDays,
    weekdays: r.schedule.weekdays,
    hours: r.schedule.hours,
    timeZone: r.schedule.timeZone,
    enabled: r.enabled,
  };
}

function bodyOf(v: ReportValues): ReportBody {
  const sorted = (list: number[] | undefined): number[] | undefined => (list?.length ? [...list].sort((a, b) => a - b) : undefined);
  return {
    name: v.name.trim(),
    organizationId: v.organizationId ?? null,
    series: v.series.map((s) => ({ deviceId: s.deviceId ?? '', key: (s.key ?? '').trim() })),
    aggregation: v.aggregation,
    ...(v.aggregation !== 'NONE' && v.intervalMinutes ? { interval: Math.round(v.intervalMinutes * 60_000) } : {}),
    schedule: {
      frequency: v.frequency,
      ...(v.frequency === 'MONTHLY' ? { monthDays: sorted(v.monthDays) } : {}),
      ...(v.frequency === 'WEEKLY' ? { weekdays: sorted(v.weekdays) } : {}),
      hours: sorted(v.hours) ?? [],
      timeZone: v.timeZone,
    },
    enabled: v.enabled,
  };
}

function IntervalField(): JSX.Element | null {
  const { t } = useTranslation('reports');
  const { form } = Form.useFormContext();
  if (Form.useWatch('aggregation', form) === 'NONE') return null;
  return (
    <Form.Item field="intervalMinutes" label={t('form.interval')} rules={[requiredRule()]}>
      <InputNumber min={REPORT_INTERVAL_MIN / 60_000} max={REPORT_INTERVAL_MAX / 60_000} precision={0} suffix={t('form.minutes')} data-testid="report-form-interval" />
    </Form.Item>
  );
}

export interface ReportDrawerProps {
  /** undefined: closed; null: a new report. */
  editing: Report | null | undefined;
  onClose: () => void;
  onSaved: () => void;
}

export function ReportDrawer({ editing, onClose, onSaved }: ReportDrawerProps): JSX.Element {
  const { t } = useTranslation('reports');
  const save = async (v: ReportValues): Promise<void> => {
    const body = bodyOf(v);
    if (editing) await updateReport({ ...body, id: editing.id });
    else await createReport(body);
    Message.success(t('saved'));
    onSaved();
  };
  return (
    <FormDrawer<ReportValues>
      visible={editing !== undefined}
      mode={editing ? 'edit' : 'create'}
      title={editing ? t('edit') : t('create')}
      width="50%"
      initialValues={valuesOf(editing ?? null)}
      fields={fields}
      onSubmit={save}
      onClose={onClose}
      testId="report-form"
    >
      <Form.Item field="name" label={t('fields.name')} rules={[requiredRule()]}>
        <Input maxLength={REPORT_NAME_MAX} placeholder={t('form.namePlaceholder')} data-testid="report-form-name" />
      </Form.Item>
      <Form.Item field="organizationId" label={t('fields.organization')}>
        <OrganizationTreeSelect allowClear testId="report-form-organization" />
      </Form.Item>
      <Form.Item label={t('fields.series')} required>
        <SeriesField />
      </Form.Item>
      <Form.Item field="aggregation" label={t('fields.aggregation')} rules={[requiredRule()]}>
        <EnumSelect ns="reports" group="aggregation" values={reportAggregations} testId="report-form-aggregation" />
      </Form.Item>
      <IntervalField />
      <ScheduleFields />
      <Form.Item field="enabled" label={t('fields.enabled')} triggerPropName="checked">
        <Switch data-testid="report-form-enabled" />
      </Form.Item>
    </FormDrawer>
  );
}
