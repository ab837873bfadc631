/**
 * One typed input of a thing-model parameter or property, by its data type: a switch named by the
 * bool's two names, an enum's items, a number with its unit and range, text of its length, a
 * STRUCT as one such input per member. Used by
 * the command dialog and by the scene editor's DEVICE_OUT action, so both type a value the same way.
 * Values follow `ParamInput` (commandForm.ts): `paramValue` turns them into the wire value. The
 * Modbus write dialog (web/features/modbus/ModbusWriteModal.tsx) types a property's value with it too.
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Select from '@arco-design/web-react/es/Select';
import Switch from '@arco-design/web-react/es/Switch';
import { useTranslation } from 'react-i18next';
import type { ThingModelParam, ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { i18n } from '../../i18n/i18n.ts';
import type { CommandProblem } from './commandForm.ts';
import './command.css';

export interface ParamFieldProps {
  param: Pick<ThingModelParam, 'identifier' | 'functionName' | 'dataType'>;
  /** The form field path the value is kept under. */
  field: string;
  /** `data-testid` of the control; a STRUCT's members get `<testId>-<member>`. */
  testId: string;
}

/** A form rule from a check answering a key of the command or errors namespace. */
export function rule(check: (value: unknown) => CommandProblem): { validator: (value: unknown, cb: (error?: string) => void) => void } {
  return {
    validator: (value, cb) => {
      const key = check(value);
      // Keys of the command and errors namespaces, chosen by the checks at run time.
      cb(key ? i18n.t(key as 'http:jsonInvalid') : undefined);
    },
  };
}

/** How a model item is named in a picker or a label: its name and identifier. */
export function modelItemLabel(item: { functionName: string; identifier: string }): string {
  return `${item.functionName} (${item.identifier})`;
}

/** The value input of a writable property (an ATTRIBUTE command, the scene editor's DEVICE_OUT). */
export function PropertyValueField({ property, field, testId }: { property: ThingModelTsl['properties'][number]; field: string; testId: string }): JSX.Element {
  return (
    <ParamField
      param={{ identifier: property.identifier, functionName: property.functionName, dataType: property.functionJson.dataType }}
      field={field}
      testId={testId}
    />
  );
}

/** One input parameter of a service, by its data type. */
export function ParamField({ param, field, testId }: ParamFieldProps): JSX.Element {
  const { t } = useTranslation('command');
  const label = modelItemLabel(param);
  const required = { required: true, message: t('send.paramRequired', { name: param.functionName }) };
  const dataType = param.dataType;
  switch (dataType.type) {
    case 'BOOL':
      // Held as '0'/'1' (ParamInput); the switch shows the model's names of the two values.
      return (
        <Form.Item
          field={field}
          label={label}
          triggerPropName="checked"
          formatter={(value: unknown) => String(value) === '1'}
          normalize={(checked: boolean | undefined) => (checked ? '1' : '0')}
        >
          <Switch checkedText={dataType.specs['1']} uncheckedText={dataType.specs['0']} aria-label={label} data-testid={testId} />
        </Form.Item>
      );
    case 'ENUM':
      return (
        <Form.Item field={field} label={label} required rules={[required]}>
          <Select placeholder={t('send.choose')} data-testid={testId} getPopupContainer={() => document.body}>
            {dataType.specs.map((item) => (
              <Select.Option key={item.value} value={item.value} data-testid={`${testId}-${item.value}`}>{`${item.description} (${item.value})`}</Select.Option>
            ))}
          </Select>
        </Form.Item>
      );
    case 'INT':
    case 'DOUBLE': {
      const { min, max, step, unit } = dataType.specs;
      return (
        <Form.Item
          field={field}
          label={label}
          required
          rules={[required]}
          extra={t('send.range', { min, max, unit: unit ?? '' })}
        >
          <InputNumber
            min={min}
            max={max}
            step={step}
            precision={dataType.type === 'INT' ? 0 : undefined}
            suffix={unit}
            style={{ width: 240 }}
            data-testid={testId}
          />
        </Form.Item>
      );
    }
    case 'TEXT':
      return (
        <Form.Item field={field} label={label} required rules={[required]}>
          <Input maxLength={dataType.specs.length} data-testid={testId} />
        </Form.Item>
      );
    case 'STRUCT':
      return (
        <fieldset className="ec-param-struct" data-testid={testId}>
          <legend>{label}</legend>
          {dataType.specs.map((member) => (
            <ParamField key={member.identifier} param={member} field={`${field}.${member.identifier}`} testId={`${testId}-${member.identifier}`} />
          ))}
        </fieldset>
      );
  }
}
