/**
 * Typed inputs shared by the command dialog (CommandModal.tsx) and the Modbus write dialog
 * (web/features/modbus/ModbusWriteModal.tsx): one input per data type, checked with the command
 * form's rules (commandForm.ts).
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


/**
 * One typed input of a value, by its data type (a service's input parameter; a property's value in
 * the Modbus write dialog): the form field `params.<identifier>`, read back with `paramValue`.
 */
export function ParamField({ param, testIdPrefix = 'cmd-param' }: { param: ThingModelParam; testIdPrefix?: string }): JSX.Element {
  const { t } = useTranslation('command');
  const field = `params.${param.identifier}`;
  const label = `${param.functionName} (${param.identifier})`;
  const testId = `${testIdPrefix}-${param.identifier}`;
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
