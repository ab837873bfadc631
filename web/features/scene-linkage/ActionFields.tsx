/**
 * One execution action. MSG_NOTIFY raises an alarm of a severity and type (and a notification).
 * DEVICE_OUT commands a device: product → device → a service of its published model with typed
 * inputs, a writable property with a typed value (the command dialog's ParamField), or custom JSON.
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Radio from '@arco-design/web-react/es/Radio';
import Select from '@arco-design/web-react/es/Select';
import { useTranslation } from 'react-i18next';
import { alarmSeverities } from '../../../server/contract/alarm.ts';
import { ALARM_MESSAGE_MAX, ALARM_TYPE_MAX, executionActions, type ExecutionAction } from '../../../server/contract/scene-linkage.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { modelItemLabel, ParamField, PropertyValueField } from '../command/ParamField.tsx';
import { DeviceSelect } from '../device/DeviceSelect.tsx';
import { initialParamInput, jsonContentProblem, writableProperties } from '../command/commandForm.ts';
import { i18n } from '../../i18n/i18n.ts';
import { ProductField, useFieldValue } from './ComparisonFields.tsx';
import { emptyAction, type DeviceOutMode } from './sceneForm.ts';
import { usePublishedModelOf } from './useSceneChoices.ts';

const popup = (): HTMLElement => document.body;
const deviceOutModes: readonly DeviceOutMode[] = ['SERVICE', 'ATTRIBUTE', 'CUSTOM'];

export function ActionFields({ form, field, testId }: { form: FormInstance; field: string; testId: string }): JSX.Element {
  const { t } = useTranslation('scene');
  const type = useFieldValue<ExecutionAction>(form, `${field}.type`) ?? 'MSG_NOTIFY';
  return (
    <>
      <Form.Item field={`${field}.type`} label={t('field.actionType')}>
        <EnumSelect
          ns="scene"
          group="executionAction"
          values={executionActions}
          variant="radio"
          testId={`${testId}-type`}
          onChange={(next) => next && form.setFieldValue(field, emptyAction(next))}
        />
      </Form.Item>
      {type === 'MSG_NOTIFY' ? (
        <div className="ec-scene-row">
          <Form.Item field={`${field}.severity`} label={t('field.severity')} rules={[{ required: true, message: t('rule.required') }]}>
            <EnumSelect ns="alarm" group="severity" values={alarmSeverities} placeholder={t('field.severity')} testId={`${testId}-severity`} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item field={`${field}.alarmType`} label={t('field.alarmType')} rules={[{ required: true, message: t('rule.required') }]}>
            <Input maxLength={ALARM_TYPE_MAX} placeholder={t('field.alarmTypePlaceholder')} aria-label={t('field.alarmType')} style={{ width: 220 }} data-testid={`${testId}-alarm-type`} />
          </Form.Item>
          <Form.Item field={`${field}.message`} label={t('field.message')}>
            <Input maxLength={ALARM_MESSAGE_MAX} aria-label={t('field.message')} style={{ width: 320 }} data-testid={`${testId}-message`} />
          </Form.Item>
        </div>
      ) : (
        <DeviceOutFields form={form} field={field} testId={testId} />
      )}
    </>
  );
}

function DeviceOutFields({ form, field, testId }: { form: FormInstance; field: string; testId: string }): JSX.Element {
  const { t } = useTranslation('scene');
  const productId = useFieldValue<string>(form, `${field}.deviceProfileId`);
  const mode = useFieldValue<DeviceOutMode>(form, `${field}.commandType`) ?? 'SERVICE';
  const serviceId = useFieldValue<string>(form, `${field}.service`);
  const propertyId = useFieldValue<string>(form, `${field}.property`);
  const model = usePublishedModelOf(productId);
  const services = model?.services ?? [];
  const writable = writableProperties(model ?? null);
  const service = services.find((s) => s.identifier === serviceId);
  const property = writable.find((p) => p.identifier === propertyId);

  return (
    <>
      <div className="ec-scene-row">
        <ProductField field={field} testId={testId} onChange={() => form.setFieldValue(`${field}.deviceId`, undefined)} />
        <Form.Item field={`${field}.deviceId`} label={t('field.device')} rules={[{ required: true, message: t('rule.required') }]}>
          <DeviceSelect<string> deviceProfileId={productId} placeholder={t('field.devicesPlaceholder')} testId={`${testId}-device`} />
        </Form.Item>
      </div>
      {productId && model === null ? <p className="arco-form-message ec-scene-hint ec-scene-hint--problem">{t('hint.noModel')}</p> : null}
      <Form.Item field={`${field}.commandType`} label={t('field.commandType')}>
        <Radio.Group type="button" aria-label={t('field.commandType')} data-testid={`${testId}-command-type`}>
          {deviceOutModes.map((m) => (
            <Radio key={m} value={m} data-testid={`${testId}-command-type-${m}`}>
              {t(`commandMode.${m}`)}
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      {mode === 'SERVICE' ? (
        <>
          <Form.Item
            field={`${field}.service`}
            label={t('field.service')}
            rules={[{ required: true, message: t('rule.required') }]}
            extra={model && services.length === 0 ? t('hint.noServices') : undefined}
          >
            <Select
              placeholder={t('field.servicePlaceholder')}
              getPopupContainer={popup}
              aria-label={t('field.service')}
              style={{ width: 280 }}
              data-testid={`${testId}-service`}
              onChange={(identifier: string) => {
                const chosen = services.find((s) => s.identifier === identifier);
                form.setFieldValue(
                  `${field}.params`,
                  Object.fromEntries((chosen?.functionJson.inputData ?? []).map((p) => [p.identifier, initialParamInput(p.dataType)])),
                );
              }}
            >
              {services.map((s) => (
                <Select.Option key={s.identifier} value={s.identifier}>{modelItemLabel(s)}</Select.Option>
              ))}
            </Select>
          </Form.Item>
          {service?.functionJson.inputData.map((param) => (
            <ParamField key={`${service.identifier}.${param.identifier}`} param={param} field={`${field}.params.${param.identifier}`} testId={`${testId}-param-${param.identifier}`} />
          ))}
        </>
      ) : null}
      {mode === 'ATTRIBUTE' ? (
        <>
          <Form.Item
            field={`${field}.property`}
            label={t('field.writableProperty')}
            rules={[{ required: true, message: t('rule.required') }]}
            extra={model && writable.length === 0 ? t('hint.noWritable') : undefined}
          >
            <Select
              placeholder={t('field.propertyPlaceholder')}
              getPopupContainer={popup}
              aria-label={t('field.writableProperty')}
              style={{ width: 280 }}
              data-testid={`${testId}-property`}
              onChange={(identifier: string) => {
                const chosen = writable.find((p) => p.identifier === identifier);
                form.setFieldValue(`${field}.propertyValue`, chosen ? initialParamInput(chosen.functionJson.dataType) : undefined);
              }}
            >
              {writable.map((p) => (
                <Select.Option key={p.identifier} value={p.identifier}>{modelItemLabel(p)}</Select.Option>
              ))}
            </Select>
          </Form.Item>
          {property ? <PropertyValueField key={property.identifier} property={property} field={`${field}.propertyValue`} testId={`${testId}-property-value`} /> : null}
        </>
      ) : null}
      {mode === 'CUSTOM' ? (
        <Form.Item
          field={`${field}.content`}
          label={t('field.content')}
          rules={[
            {
              validator: (v: unknown, cb: (e?: string) => void) => {
                const key = jsonContentProblem(v, 'CUSTOM');
                cb(key ? i18n.t(key as 'http:jsonInvalid') : undefined);
              },
            },
          ]}
        >
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} spellCheck={false} aria-label={t('field.content')} className="ec-scene-mono" data-testid={`${testId}-content`} />
        </Form.Item>
      ) : null}
    </>
  );
}
