/**
 * Telemetry values as the console shows them, read through the property's data type: numbers with
 * their unit, BOOL and ENUM values with their names, STRUCT members by name. Values that do not fit
 * (the server flags them) are shown as they came. Pure.
 */
import type { DataType, ThingModelParam } from '../../../server/contract/thing-model.ts';

export interface ShownValue {
  /** The value itself (`23.5`, `1`, `true`, `{"x":1}`). */
  text: string;
  /** The unit symbol after a number. */
  unit?: string;
  /** The name of a BOOL or ENUM value (`开`, `Heating`). */
  label?: string;
}

/** A raw value as text: strings as they are, everything else as JSON. */
export function rawText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value) ?? String(value);
}

/** A number with at most `decimals` decimals, without trailing zeros. */
function shortNumber(value: number, decimals = 6): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(decimals)));
}

function boolOf(value: unknown): '0' | '1' | null {
  if (value === true || value === 1 || value === '1' || value === 'true') return '1';
  if (value === false || value === 0 || value === '0' || value === 'false') return '0';
  return null;
}

export function formatValue(value: unknown, dataType: DataType | undefined): ShownValue {
  if (value === null || value === undefined) return { text: '' };
  switch (dataType?.type) {
    case 'INT':
    case 'DOUBLE': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
      if (!Number.isFinite(n)) return { text: rawText(value) };
      return { text: shortNumber(n), ...(dataType.specs.unit ? { unit: dataType.specs.unit } : {}) };
    }
    case 'BOOL': {
      const bit = boolOf(value);
      return bit === null ? { text: rawText(value) } : { text: rawText(value), label: dataType.specs[bit] };
    }
    case 'ENUM': {
      const item = dataType.specs.find((e) => e.value === Number(value));
      return item ? { text: rawText(value), label: item.description } : { text: rawText(value) };
    }
    case 'STRUCT': {
      if (typeof value !== 'object' || Array.isArray(value)) return { text: rawText(value) };
      return { text: membersText(dataType.specs, value as Record<string, unknown>) };
    }
    default:
      return { text: rawText(value) };
  }
}

/** `x: 1 m, y: 2 m` for a STRUCT value or a set of parameters, by member name. */
export function membersText(members: readonly ThingModelParam[], value: Record<string, unknown>): string {
  const known = new Set(members.map((m) => m.identifier));
  const parts = members
    .filter((m) => m.identifier in value)
    .map((m) => `${m.functionName}: ${shownText(formatValue(value[m.identifier], m.dataType))}`);
  for (const [key, v] of Object.entries(value)) if (!known.has(key)) parts.push(`${key}: ${rawText(v)}`);
  return parts.join(', ');
}

/** One line: `23.5 °C`, `开 (1)`. */
export function shownText(shown: ShownValue): string {
  if (shown.label) return `${shown.label} (${shown.text})`;
  return shown.unit ? `${shown.text} ${shown.unit}` : shown.text;
}

/** Whether values of this type can be drawn as a line (numbers, and booleans as 0/1). */
export function isChartable(dataType: DataType | undefined): boolean {
  return dataType !== undefined && dataType.type !== 'TEXT' && dataType.type !== 'STRUCT';
}
