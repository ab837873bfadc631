/**
 * One typed input of a thing-model parameter or property, by its data type: the bool's two names,
 * an enum's items, a number with its unit and range, text of its length, a STRUCT as JSON. Used by
 * the command dialog and by the scene editor's DEVICE_OUT action, so both type a value the same way.
 * Values follow `ParamInput` (commandForm.ts): `paramValue` turns them into the wire value. The
 * Modbus write dialog (web/features/modbus/ModbusWriteModal.tsx) types a property's value with it too.
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Radio from '@arco-design/web-react/es/Radio';
import Select from '@arco-design/web-react/es/Select';
import { useTranslation } from 'react-i18next';
import type { ThingModelParam } from '../../../server/contract/thing-model.ts';
import { i18n } from '../../i18n/i18n.ts';
import { structParamProblem, type CommandProblem } from './commandForm.ts';

export interface ParamFieldProps {
  param: Pick<ThingModelParam, 'identifier' | 'functionName' | 'dataType'>;
  /** The form field path the value is kept under. */
  field: string;
  /** `data-testid` of the control; BOOL options get `<testId>-0` and `-1`. */
  testId: string;
}

/** A form rule from a check answering a key of the command or errors namespace. */
export function rule(check: (value: unknown) => CommandProblem): { validator: (value: unknown, cb: (error?: string) => void) => void } {
  return {
    validator: (value, cb) => {
      const key = check(value);
      // Keys of the command and errors namespaces, chosen by the checks at run time.
      cb(key ? i18n.t(key as 'command:form.jsonInvalid') : undefined);
    },
  };
}

/** One input parameter of a service, by its data type. */
export function ParamField({ param, field, testId }: ParamFieldProps): JSX.Element {
  const { t } = useTranslation('command');
  const label = `${param.functionName} (${param.identifier})`;
  const required = { required: true, message: t('send.paramRequired', { name: param.functionName }) };
  const dataType = param.dataType;
  switch (dataType.type) {
    case 'BOOL':
      return (
        <Form.Item field={field} label={label} required rules={[required]}>
          <Radio.Group type="button" data-testid={testId}>
            <Radio value="0" data-testid={`${testId}-0`}>{`${dataType.specs['0']} (0)`}</Radio>
            <Radio value="1" data-testid={`${testId}-1`}>{`${dataType.specs['1']} (1)`}</Radio>
          </Radio.Group>
        </Form.Item>
      );
    case 'ENUM':
      return (
        <Form.Item field={field} label={label} required rules={[required]}>
          <Select data-testid={testId} getPopupContainer={() => document.body}>
            {dataType.specs.map((item) => (
              <Select.Option key={item.value} value={item.value}>{`${item.description} (${item.value})`}</Select.Option>
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
        <Form.Item field={field} label={label} required rules={[rule(structParamProblem)]} extra={t('send.structHint')}>
          <Input.TextArea className="ec-cmd-textarea" autoSize={{ minRows: 3, maxRows: 10 }} spellCheck={false} data-testid={testId} />
        </Form.Item>
      );
  }
}
