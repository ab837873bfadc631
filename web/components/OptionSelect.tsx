/**
 * A select over records with an id and a shown name (products, devices), searchable by that name.
 * Works as a form control (`value`/`onChange`, passed on by Form.Item); `multiple` picks several.
 */
import type { CSSProperties, JSX } from 'react';
import Select from '@arco-design/web-react/es/Select';

export interface OptionSelectProps<V extends string | string[]> {
  items: readonly { id: string; label: string }[];
  value?: V;
  onChange?: (value: V) => void;
  /** Also the control's accessible name. */
  placeholder: string;
  multiple?: boolean;
  allowClear?: boolean;
  testId: string;
  style?: CSSProperties;
}

export function OptionSelect<V extends string | string[]>(props: OptionSelectProps<V>): JSX.Element {
  return (
    <Select
      value={props.value}
      onChange={(v: V) => props.onChange?.(v)}
      mode={props.multiple ? 'multiple' : undefined}
      allowClear={props.allowClear}
      showSearch
      filterOption={(input, option) => String((option as { props?: { children?: unknown } }).props?.children ?? '').toLowerCase().includes(input.toLowerCase())}
      placeholder={props.placeholder}
      aria-label={props.placeholder}
      getPopupContainer={() => document.body}
      style={props.style ?? { width: 220 }}
      data-testid={props.testId}
    >
      {props.items.map((item) => (
        <Select.Option key={item.id} value={item.id}>
          {item.label}
        </Select.Option>
      ))}
    </Select>
  );
}

/** A device's shown name: its alias when it has one. */
export function deviceOption(d: { id: string; name: string; alias?: string | null }): { id: string; label: string } {
  return { id: d.id, label: d.alias || d.name };
}
