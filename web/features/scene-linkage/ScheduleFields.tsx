/**
 * When the scene is in force (ThingsBoard's alarm schedule): any time, chosen weekdays between a
 * start and an end time, or a window per weekday; in a time zone. An end before the start runs past
 * midnight.
 */
import type { JSX } from 'react';
import Checkbox from '@arco-design/web-react/es/Checkbox';
import Form from '@arco-design/web-react/es/Form';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import Switch from '@arco-design/web-react/es/Switch';
import TimePicker from '@arco-design/web-react/es/TimePicker';
import { useTranslation } from 'react-i18next';
import { scheduleTypes, type CustomScheduleItem, type ScheduleType } from '../../../server/contract/scene-linkage.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { useFieldValue } from './ComparisonFields.tsx';
import { browserTimeZone } from './nextRuns.ts';
import { defaultCustomItems, WEEKDAYS } from './sceneForm.ts';
import { TimeZoneSelect } from './TimeZoneSelect.tsx';

const popup = (): HTMLElement => document.body;
type Weekday = (typeof WEEKDAYS)[number];

function ClockField({ field, label, testId }: { field: string; label: string; testId: string }): JSX.Element {
  const { t } = useTranslation('scene');
  return (
    <Form.Item field={field} label={label} rules={[{ required: true, message: t('rule.required') }]}>
      <TimePicker format="HH:mm" getPopupContainer={popup} aria-label={label} style={{ width: 120 }} data-testid={testId} />
    </Form.Item>
  );
}

/**
 * How a window is read, shown beside it (ThingsBoard's editor does the same): an end before the
 * start covers midnight → end and start → midnight of the chosen day itself, not the next morning
 * (server/modules/rule-engine/schedule-window.ts); equal ends are the whole day.
 */
function WindowHint({ form, at, testId }: { form: FormInstance; at: string; testId: string }): JSX.Element | null {
  const { t } = useTranslation('scene');
  const start = useFieldValue<string>(form, `${at}.startTime`);
  const end = useFieldValue<string>(form, `${at}.endTime`);
  if (!start || !end) return null;
  let text: string | null = null;
  if (start === end) text = t('hint.wholeDay');
  else if (end < start && end !== '00:00') text = t('hint.pastMidnight', { start, end });
  return text ? (
    <span className="ec-scene-window-hint" data-testid={testId}>
      {text}
    </span>
  ) : null;
}

export function ScheduleFields({ form }: { form: FormInstance }): JSX.Element {
  const { t } = useTranslation('scene');
  const type = useFieldValue<ScheduleType>(form, 'schedule.scheduleType') ?? 'ANY_TIME';
  const items = useFieldValue<CustomScheduleItem[]>(form, 'schedule.items') ?? [];
  return (
    <>
      <div className="ec-scene-row">
        <Form.Item field="schedule.scheduleType" label={t('field.scheduleType')}>
          <EnumSelect
            ns="scene"
            group="scheduleType"
            values={scheduleTypes}
            variant="radio"
            testId="scene-schedule-type"
            onChange={(next) => {
              const zone = (form.getFieldValue('schedule.timeZone') as string | undefined) ?? browserTimeZone();
              if (next === 'SPECIFIC_TIME') form.setFieldValue('schedule', { scheduleType: next, timeZone: zone, weekdays: [1, 2, 3, 4, 5], startTime: '08:00', endTime: '18:00' });
              else if (next === 'CUSTOM') form.setFieldValue('schedule', { scheduleType: next, timeZone: zone, items: defaultCustomItems() });
              else form.setFieldValue('schedule', { scheduleType: 'ANY_TIME', timeZone: zone });
            }}
          />
        </Form.Item>
        {type !== 'ANY_TIME' ? (
          <Form.Item field="schedule.timeZone" label={t('field.timeZone')} rules={[{ required: true, message: t('rule.required') }]}>
            <TimeZoneSelect testId="scene-schedule-time-zone" />
          </Form.Item>
        ) : null}
      </div>
      {type === 'SPECIFIC_TIME' ? (
        <div className="ec-scene-row">
          <Form.Item
            field="schedule.weekdays"
            label={t('field.weekdays')}
            rules={[{ required: true, type: 'array', minLength: 1, message: t('rule.weekdaysRequired') }]}
          >
            <Checkbox.Group aria-label={t('field.weekdays')} data-testid="scene-schedule-weekdays">
              {WEEKDAYS.map((d) => (
                <Checkbox key={d} value={d} data-testid={`scene-schedule-weekday-${d}`}>
                  {t(`weekday.${d}`)}
                </Checkbox>
              ))}
            </Checkbox.Group>
          </Form.Item>
          <ClockField field="schedule.startTime" label={t('field.startTime')} testId="scene-schedule-start" />
          <ClockField field="schedule.endTime" label={t('field.endTime')} testId="scene-schedule-end" />
          <WindowHint form={form} at="schedule" testId="scene-schedule-window-hint" />
        </div>
      ) : null}
      {type === 'CUSTOM'
        ? items.map((item, i) => (
            <div className="ec-scene-row ec-scene-row--custom-day" key={item.weekday} data-testid={`scene-schedule-day-${item.weekday}`}>
              <span className="ec-scene-day">{t(`weekday.${item.weekday as Weekday}`)}</span>
              <Form.Item field={`schedule.items[${i}].enabled`} label={t('hint.customDay')} triggerPropName="checked">
                <Switch aria-label={`${t(`weekday.${item.weekday as Weekday}`)} ${t('hint.customDay')}`} data-testid={`scene-schedule-day-${item.weekday}-enabled`} />
              </Form.Item>
              <ClockField field={`schedule.items[${i}].startTime`} label={t('field.startTime')} testId={`scene-schedule-day-${item.weekday}-start`} />
              <ClockField field={`schedule.items[${i}].endTime`} label={t('field.endTime')} testId={`scene-schedule-day-${item.weekday}-end`} />
              <WindowHint form={form} at={`schedule.items[${i}]`} testId={`scene-schedule-day-${item.weekday}-window-hint`} />
            </div>
          ))
        : null}
    </>
  );
}
