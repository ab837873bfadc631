/**
 * A SCHEDULE_TRIGGER's cron expression and time zone, with the next five run times under them,
 * recomputed as the user types (croner, as the server runs it).
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { CRON_MAX } from '../../../server/contract/scene-linkage.ts';
import { DATE_TIME_FORMAT } from '../../lib/date-format.ts';
import { useFieldValue } from './ComparisonFields.tsx';
import { nextRuns } from './nextRuns.ts';
import { TimeZoneSelect } from './TimeZoneSelect.tsx';

/** A run time written in the trigger's own zone (what the cron expression means). */
function inZone(date: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

export function CronFields({ form, field, testId }: { form: FormInstance; field: string; testId: string }): JSX.Element {
  const { t } = useTranslation('scene');
  const cron = useFieldValue<string>(form, `${field}.cron`);
  const timeZone = useFieldValue<string>(form, `${field}.timeZone`);
  const preview = nextRuns(cron, timeZone);
  return (
    <>
      <div className="ec-scene-row">
        <Form.Item
          field={`${field}.cron`}
          label={t('field.cron')}
          extra={t('field.cronHint')}
          rules={[
            { required: true, message: t('rule.required') },
            { validator: (v: unknown, cb: (e?: string) => void) => cb(nextRuns(String(v ?? ''), 'UTC').ok ? undefined : t('hint.cronInvalid')) },
          ]}
        >
          <Input maxLength={CRON_MAX} aria-label={t('field.cron')} className="ec-scene-mono" style={{ width: 240 }} data-testid={`${testId}-cron`} />
        </Form.Item>
        <Form.Item field={`${field}.timeZone`} label={t('field.timeZone')} rules={[{ required: true, message: t('rule.required') }]}>
          <TimeZoneSelect testId={`${testId}-time-zone`} />
        </Form.Item>
      </div>
      <div className="ec-scene-next-runs" aria-live="polite" data-testid={`${testId}-next-runs`}>
        <span className="ec-scene-next-runs__label">{t('field.nextRuns')}</span>
        {preview.ok ? (
          <ol>
            {preview.runs.map((run) => (
              <li key={run.getTime()}>
                {timeZone ? inZone(run, timeZone) : dayjs(run).format(DATE_TIME_FORMAT)}
              </li>
            ))}
          </ol>
        ) : (
          <span className="ec-scene-next-runs__problem">
            {preview.problem === 'timeZone' ? t('hint.timeZoneInvalid') : preview.problem === 'cron' ? t('hint.cronInvalid') : '—'}
          </span>
        )}
      </div>
    </>
  );
}
