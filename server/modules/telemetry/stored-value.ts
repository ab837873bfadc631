/**
 * How a telemetry or attribute value sits in SQLite (migration 0005): a type tag, a number column
 * that aggregations read and a text column for strings and JSON.
 */
import type { TelemetryValue } from '../../contract/telemetry.ts';

export const ValueType = { BOOLEAN: 0, NUMBER: 1, STRING: 2, JSON: 3 } as const;
export type ValueType = (typeof ValueType)[keyof typeof ValueType];

export interface StoredValue {
  valueType: ValueType;
  numValue: number | null;
  textValue: string | null;
}

export function encodeValue(value: TelemetryValue): StoredValue {
  switch (typeof value) {
    case 'boolean':
      return { valueType: ValueType.BOOLEAN, numValue: value ? 1 : 0, textValue: null };
    case 'number':
      return { valueType: ValueType.NUMBER, numValue: value, textValue: null };
    case 'string':
      return { valueType: ValueType.STRING, numValue: null, textValue: value };
    default:
      return { valueType: ValueType.JSON, numValue: null, textValue: JSON.stringify(value) };
  }
}

export function decodeValue(valueType: number, numValue: number | null, textValue: string | null): TelemetryValue {
  switch (valueType) {
    case ValueType.BOOLEAN:
      return numValue === 1;
    case ValueType.NUMBER:
      return numValue ?? 0;
    case ValueType.STRING:
      return textValue ?? '';
    default:
      return JSON.parse(textValue ?? 'null') as TelemetryValue;
  }
}
