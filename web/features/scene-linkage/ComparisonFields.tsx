/**
 * The parts of a comparison on a device key, shared by device triggers, condition filters and clear
 * rules: product → every device or chosen ones → a property (or an event) of the product's
 * PUBLISHED model → comparison → a value typed by the item (number with unit and range, the bool's
 * two names, an enum's items, text, date-time). Lives inside the editor's Arco form under `field`
 * (`triggers[0]`, `conditions[1]`, `triggers[0].clear`).
 */
import type { JSX } from 'react';
import DatePicker from '@arco-design/web-react/es/DatePicker';
import Form from '@arco-design/web-react/es/Form';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Radio from '@arco-design/web-react/es/Radio';
import Select from '@arco-design/web-react/es/Select';
import Switch from '@arco-design/web-react/es/Switch';
import { useTranslation } from 'react-i18next';
import {
  operationsByValueType,
  triggerValueTypes,
  type TriggerValueType,
} from '../../../server/contract/scene-linkage.ts';
import type { DataType, ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { DeviceSelect } from '../device/DeviceSelect.tsx';
import { ProductSelect } from '../product/ProductSelect.tsx';
import { valueTypeOf } from './sceneForm.ts';
import { usePublishedModelOf } from './useSceneChoices.ts';

const popup = (): HTMLElement => document.body;

export interface ComparisonFieldsProps {
  form: FormInstance;
  /** The path of this comparison in the form (`conditions[0]`). */
  field: string;
  /** Prefix of the data-testids (`scene-condition-0`). */
  testId: string;
  /** What the key names: a property (telemetry) or an event. */
  keyKind?: 'property' | 'event';
  /** False hides the comparison (an event trigger without a compared parameter). */
  compared?: boolean;
}

/** A form value at `path`, re-rendering when it changes. */
export function useFieldValue<T>(form: FormInstance, path: string): T | undefined {
  return Form.useWatch(path, form) as T | undefined;
}

/** The data type of the compared item: a property, or an event's output parameter. */
export function comparedDataType(model: ThingModelTsl | null | undefined, kind: 'property' | 'event', key: string | undefined, param?: string): DataType | undefined {
  if (!model || !key) return undefined;
  if (kind === 'property') return model.properties.find((p) => p.identifier === key)?.functionJson.dataType;
  return model.events.find((e) => e.identifier === key)?.functionJson.outputData.find((o) => o.identifier === param)?.dataType;
}

/** The product of a part (`<field>.deviceProfileId`); `onChange` resets what depended on it. */
export function ProductField({ field, testId, onChange }: { field: string; testId: string; onChange: () => void }): JSX.Element {
  const { t } = useTranslation('scene');
  return (
    <Form.Item field={`${field}.deviceProfileId`} label={t('field.product')} rules={[{ required: true, message: t('rule.required') }]}>
      <ProductSelect placeholder={t('field.productPlaceholder')} testId={`${testId}-product`} onChange={onChange} />
    </Form.Item>
  );
}

export function ProductDeviceFields({ form, field, testId }: Pick<ComparisonFieldsProps, 'form' | 'field' | 'testId'>): JSX.Element {
  const { t } = useTranslation('scene');
  const productId = useFieldValue<string>(form, `${field}.deviceProfileId`);
  const all = useFieldValue<boolean>(form, `${field}.allDevices`);
  return (
    <div className="ec-scene-row">
      <ProductField
        field={field}
        testId={testId}
        onChange={() => {
          form.setFieldValue(`${field}.deviceIds`, []);
          form.setFieldValue(`${field}.key`, undefined);
          form.setFieldValue(`${field}.value`, undefined);
        }}
      />
      <Form.Item field={`${field}.allDevices`} label={t('field.allDevices')} triggerPropName="checked">
        <Switch aria-label={t('field.allDevices')} data-testid={`${testId}-all-devices`} />
      </Form.Item>
      {all === false ? (
        <Form.Item
          field={`${field}.deviceIds`}
          label={t('field.devices')}
          rules={[{ required: true, type: 'array', minLength: 1, message: t('rule.devicesRequired') }]}
        >
          <DeviceSelect<string[]> multiple deviceProfileId={productId} placeholder={t('field.devicesPlaceholder')} testId={`${testId}-devices`} style={{ minWidth: 240 }} />
        </Form.Item>
      ) : null}
    </div>
  );
}

export function ComparisonFields({ form, field, testId, keyKind = 'property', compared = true }: ComparisonFieldsProps): JSX.Element {
  const { t } = useTranslation('scene');
  const productId = useFieldValue<string>(form, `${field}.deviceProfileId`);
  const key = useFieldValue<string>(form, `${field}.key`);
  const param = useFieldValue<string>(form, `${field}.param`);
  const valueType = useFieldValue<TriggerValueType>(form, `${field}.valueType`) ?? 'NUMERIC';
  const model = usePublishedModelOf(productId);
  const items = keyKind === 'property' ? (model?.properties ?? []) : (model?.events ?? []);
  const event = keyKind === 'event' ? model?.events.find((e) => e.identifier === key) : undefined;
  const dataType = comparedDataType(model, keyKind, key, param);

  const retype = (next: DataType | undefined): void => {
    form.setFieldValue(`${field}.valueType`, valueTypeOf(next));
    form.setFieldValue(`${field}.value`, undefined);
    const ops = operationsByValueType[valueTypeOf(next)];
    const op = form.getFieldValue(`${field}.operation`) as string | undefined;
    if (!op || !ops.includes(op as never)) form.setFieldValue(`${field}.operation`, ops[0]);
  };

  return (
    <>
      <ProductDeviceFields form={form} field={field} testId={testId} />
      {productId && model === null ? <p className="arco-form-message ec-scene-hint ec-scene-hint--problem">{t('hint.noModel')}</p> : null}
      <div className="ec-scene-row">
        <Form.Item
          field={`${field}.key`}
          label={keyKind === 'property' ? t('field.property') : t('field.event')}
          rules={[{ required: true, message: t('rule.required') }]}
          extra={model && items.length === 0 ? t(keyKind === 'property' ? 'hint.noProperties' : 'hint.noEvents') : undefined}
        >
          <Select
            placeholder={t('field.keyPlaceholder')}
            style={{ width: 280 }}
            getPopupContainer={popup}
            aria-label={keyKind === 'property' ? t('field.property') : t('field.event')}
            data-testid={`${testId}-key`}
            onChange={(identifier: string) => {
              form.setFieldValue(`${field}.param`, undefined);
              if (keyKind === 'property') retype(model?.properties.find((p) => p.identifier === identifier)?.functionJson.dataType);
            }}
          >
            {items.map((item) => (
              <Select.Option key={item.identifier} value={item.identifier}>
                {`${item.functionName} (${item.identifier})`}
              </Select.Option>
            ))}
          </Select>
        </Form.Item>
        {keyKind === 'event' ? (
          <Form.Item field={`${field}.param`} label={t('field.eventParam')}>
            <Select
              allowClear
              placeholder={t('field.eventParamNone')}
              getPopupContainer={popup}
              aria-label={t('field.eventParam')}
              data-testid={`${testId}-param`}
              onChange={(identifier: string | undefined) =>
                retype(event?.functionJson.outputData.find((o) => o.identifier === identifier)?.dataType)
              }
            >
              {(event?.functionJson.outputData ?? []).map((o) => (
                <Select.Option key={o.identifier} value={o.identifier}>
                  {`${o.functionName} (${o.identifier})`}
                </Select.Option>
              ))}
            </Select>
          </Form.Item>
        ) : null}
      </div>
      {compared ? (
        <div className="ec-scene-row">
          <Form.Item field={`${field}.valueType`} label={t('field.valueType')} rules={[{ required: true, message: t('rule.required') }]}>
            <EnumSelect ns="scene" group="valueType" values={triggerValueTypes} placeholder={t('field.valueType')} testId={`${testId}-value-type`} style={{ width: 140 }} />
          </Form.Item>
          <Form.Item field={`${field}.operation`} label={t('field.operation')} rules={[{ required: true, message: t('rule.required') }]}>
            <EnumSelect ns="scene" group="operation" values={operationsByValueType[valueType]} placeholder={t('field.operation')} testId={`${testId}-operation`} style={{ width: 160 }} />
          </Form.Item>
          <ValueField field={`${field}.value`} valueType={valueType} dataType={dataType} testId={`${testId}-value`} />
          {valueType === 'STRING' ? (
            <Form.Item field={`${field}.ignoreCase`} label={t('field.ignoreCase')} triggerPropName="checked">
              <Switch aria-label={t('field.ignoreCase')} data-testid={`${testId}-ignore-case`} />
            </Form.Item>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

/** The compared value's input, by the value type and the item's data type. */
function ValueField({ field, valueType, dataType, testId }: { field: string; valueType: TriggerValueType; dataType: DataType | undefined; testId: string }): JSX.Element {
  const { t } = useTranslation('scene');
  const label = t('field.value');
  const required = { required: true, message: t('rule.required') };
  if (valueType === 'BOOLEAN') {
    const names = dataType?.type === 'BOOL' ? dataType.specs : { '0': t('field.boolFalse'), '1': t('field.boolTrue') };
    return (
      <Form.Item field={field} label={label} rules={[required]}>
        <Radio.Group type="button" aria-label={label} data-testid={testId}>
          <Radio value={true} data-testid={`${testId}-true`}>{`${names['1']} (1)`}</Radio>
          <Radio value={false} data-testid={`${testId}-false`}>{`${names['0']} (0)`}</Radio>
        </Radio.Group>
      </Form.Item>
    );
  }
  if (valueType === 'DATE_TIME') {
    return (
      <Form.Item
        field={field}
        label={label}
        rules={[required]}
        normalize={(v: unknown) => (v && typeof v === 'object' && 'valueOf' in v ? Number(v.valueOf()) : v)}
      >
        <DatePicker showTime getPopupContainer={popup} aria-label={label} data-testid={testId} style={{ width: 220 }} />
      </Form.Item>
    );
  }
  if (valueType === 'NUMERIC' && dataType?.type === 'ENUM') {
    return (
      <Form.Item field={field} label={label} rules={[required]}>
        <Select placeholder={label} getPopupContainer={popup} aria-label={label} data-testid={testId} style={{ width: 200 }}>
          {dataType.specs.map((item) => (
            <Select.Option key={item.value} value={item.value}>{`${item.description} (${item.value})`}</Select.Option>
          ))}
        </Select>
      </Form.Item>
    );
  }
  if (valueType === 'NUMERIC') {
    const specs = dataType?.type === 'INT' || dataType?.type === 'DOUBLE' ? dataType.specs : undefined;
    return (
      <Form.Item
        field={field}
        label={label}
        rules={[required]}
        extra={specs ? t('hint.range', { min: specs.min, max: specs.max, unit: specs.unit ?? '' }) : undefined}
      >
        <InputNumber
          min={specs?.min}
          max={specs?.max}
          step={specs?.step}
          precision={dataType?.type === 'INT' ? 0 : undefined}
          suffix={specs?.unit}
          aria-label={label}
          style={{ width: 200 }}
          data-testid={testId}
        />
      </Form.Item>
    );
  }
  return (
    <Form.Item field={field} label={label} rules={[required]}>
      <Input maxLength={dataType?.type === 'TEXT' ? dataType.specs.length : undefined} aria-label={label} style={{ width: 220 }} data-testid={testId} />
    </Form.Item>
  );
}
