/**
 * A select (or button group) over a contract enum, labelled from the same locale entries as
 * `EnumTag` (`<ns>:<group>.<VALUE>`). Works as a form control (`value`/`onChange`).
 *
 * @example
 * <Form.Item field="transportType" label={t('transportType')}>
 *   <EnumSelect ns="product" group="transportType" values={transportTypes} testId="product-form-transport" />
 * </Form.Item>
 * <EnumSelect ns="category" group="status" values={[1, 0]} variant="radio" testId="category-form-status" />
 */
import type { CSSProperties, JSX } from 'react';
import Radio from '@arco-design/web-react/es/Radio';
import Select from '@arco-design/web-react/es/Select';
import { useEnumLabel, type EnumTagProps } from './EnumTag.tsx';

export interface EnumSelectProps<V extends string | number> {
  ns: EnumTagProps['ns'];
  group: string;
  values: readonly V[];
  value?: V | null;
  onChange?: (value: V | undefined) => void;
  placeholder?: string;
  /** Button group for two or three choices that fit on one line. */
  variant?: 'select' | 'radio';
  allowClear?: boolean;
  disabled?: boolean;
  /** `data-testid` of the control; options get `<testId>-<VALUE>`. */
  testId: string;
  style?: CSSProperties;
}

export function EnumSelect<V extends string | number>(props: EnumSelectProps<V>): JSX.Element {
  const label = useEnumLabel(props.ns, props.group);
  if (props.variant === 'radio') {
    return (
      <Radio.Group
        type="button"
        value={props.value ?? undefined}
        onChange={(v: V) => props.onChange?.(v)}
        disabled={props.disabled}
        data-testid={props.testId}
      >
        {props.values.map((v) => (
          <Radio key={String(v)} value={v} data-testid={`${props.testId}-${v}`}>
            {label(v)}
          </Radio>
        ))}
      </Radio.Group>
    );
  }
  return (
    <Select
      value={props.value ?? undefined}
      onChange={(v: V | undefined) => props.onChange?.(v)}
      placeholder={props.placeholder}
      allowClear={props.allowClear}
      disabled={props.disabled}
      style={props.style}
      data-testid={props.testId}
      getPopupContainer={() => document.body}
    >
      {props.values.map((v) => (
        <Select.Option key={String(v)} value={v} data-testid={`${props.testId}-${v}`}>
          {label(v)}
        </Select.Option>
      ))}
    </Select>
  );
}
