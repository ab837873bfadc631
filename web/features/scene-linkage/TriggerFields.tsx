/**
 * One trigger of the editor: its type, then what that type needs. A device trigger compares a
 * property report (or an event report, optionally one of its output parameters) with a condition
 * type: SIMPLE, DURATION (held for a time) or REPEATING (true N messages in a row). A schedule
 * trigger is a cron expression in a time zone; a scene trigger names another scene; HAND_ACT runs
 * from the list's "Run" button.
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Select from '@arco-design/web-react/es/Select';
import { useTranslation } from 'react-i18next';
import {
  conditionTypes,
  deviceTriggerTypes,
  REPEAT_MAX,
  REPEAT_MIN,
  timeUnits,
  triggerTypes,
  type ConditionType,
  type DeviceTriggerType,
  type Scene,
  type TriggerType,
} from '../../../server/contract/scene-linkage.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { ComparisonFields, useFieldValue } from './ComparisonFields.tsx';
import { CronFields } from './CronFields.tsx';
import { browserTimeZone } from './nextRuns.ts';
import { emptyTrigger, type TriggerValues } from './sceneForm.ts';

export interface TriggerFieldsProps {
  form: FormInstance;
  field: string;
  testId: string;
  /** Scenes a SCENE_TRIGGER may name (the edited scene left out). */
  scenes: readonly Pick<Scene, 'id' | 'name'>[];
}

export function TriggerFields({ form, field, testId, scenes }: TriggerFieldsProps): JSX.Element {
  const { t } = useTranslation('scene');
  const type = useFieldValue<TriggerType>(form, `${field}.type`) ?? 'DEVICE_TRIGGER';
  const deviceTriggerType = useFieldValue<DeviceTriggerType>(form, `${field}.deviceTriggerType`) ?? 'TIME_SERIES';
  const conditionType = useFieldValue<ConditionType>(form, `${field}.conditionType`) ?? 'SIMPLE';
  const param = useFieldValue<string>(form, `${field}.param`);

  return (
    <>
      <div className="ec-scene-row">
        <Form.Item field={`${field}.type`} label={t('field.triggerType')} rules={[{ required: true, message: t('rule.required') }]}>
          <EnumSelect
            ns="scene"
            group="triggerType"
            values={triggerTypes}
            placeholder={t('field.triggerType')}
            testId={`${testId}-type`}
            style={{ width: 180 }}
            onChange={(next) => {
              if (!next) return;
              const current = form.getFieldValue(field) as TriggerValues | undefined;
              form.setFieldValue(field, { ...emptyTrigger(next, browserTimeZone()), clear: current?.clear ?? { enabled: false } });
            }}
          />
        </Form.Item>
        {type === 'DEVICE_TRIGGER' ? (
          <Form.Item field={`${field}.deviceTriggerType`} label={t('field.deviceTriggerType')}>
            <EnumSelect
              ns="scene"
              group="deviceTriggerType"
              values={deviceTriggerTypes}
              variant="radio"
              testId={`${testId}-device-trigger-type`}
              onChange={() => {
                form.setFieldValue(`${field}.key`, undefined);
                form.setFieldValue(`${field}.param`, undefined);
                form.setFieldValue(`${field}.value`, undefined);
              }}
            />
          </Form.Item>
        ) : null}
      </div>

      {type === 'DEVICE_TRIGGER' ? (
        <>
          <ComparisonFields
            form={form}
            field={field}
            testId={testId}
            keyKind={deviceTriggerType === 'DEVICE_EVENT' ? 'event' : 'property'}
            compared={deviceTriggerType === 'TIME_SERIES' || Boolean(param)}
          />
          <div className="ec-scene-row">
            <Form.Item field={`${field}.conditionType`} label={t('field.conditionType')}>
              <EnumSelect ns="scene" group="conditionType" values={conditionTypes} variant="radio" testId={`${testId}-condition-type`} />
            </Form.Item>
            {conditionType === 'DURATION' ? (
              <>
                <Form.Item field={`${field}.duration.value`} label={t('field.duration')} rules={[{ required: true, message: t('rule.required') }]}>
                  <InputNumber min={1} precision={0} aria-label={t('field.duration')} style={{ width: 120 }} data-testid={`${testId}-duration`} />
                </Form.Item>
                <Form.Item field={`${field}.duration.unit`} label={t('field.durationUnit')} initialValue="SECONDS">
                  <EnumSelect ns="scene" group="timeUnit" values={timeUnits} placeholder={t('field.durationUnit')} testId={`${testId}-duration-unit`} style={{ width: 120 }} />
                </Form.Item>
              </>
            ) : null}
            {conditionType === 'REPEATING' ? (
              <Form.Item field={`${field}.repeat`} label={t('field.repeat')} rules={[{ required: true, message: t('rule.required') }]}>
                <InputNumber min={REPEAT_MIN} max={REPEAT_MAX} precision={0} aria-label={t('field.repeat')} style={{ width: 120 }} data-testid={`${testId}-repeat`} />
              </Form.Item>
            ) : null}
          </div>
        </>
      ) : null}

      {type === 'SCHEDULE_TRIGGER' ? <CronFields form={form} field={field} testId={testId} /> : null}

      {type === 'SCENE_TRIGGER' ? (
        <Form.Item field={`${field}.sceneId`} label={t('field.scene')} rules={[{ required: true, message: t('rule.required') }]}>
          <Select placeholder={t('field.scenePlaceholder')} getPopupContainer={() => document.body} aria-label={t('field.scene')} style={{ width: 280 }} data-testid={`${testId}-scene`}>
            {scenes.map((s) => (
              <Select.Option key={s.id} value={s.id}>
                {s.name}
              </Select.Option>
            ))}
          </Select>
        </Form.Item>
      ) : null}

      {type === 'HAND_ACT' ? <p className="ec-scene-hint">{t('hint.handAct')}</p> : null}
    </>
  );
}
