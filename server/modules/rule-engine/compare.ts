/**
 * The comparisons of triggers, conditions and clear rules (server/contract/scene-linkage.ts): pure,
 * so every operation × value type is unit tested. A reported value that cannot be read as the
 * value type compares false (a text on a NUMERIC trigger never fires it).
 */
import type { SceneValue, TriggerOperation, TriggerValueType } from '../../contract/scene-linkage.ts';
import { numberOf } from '../../contract/numbers.ts';
import { dateTimeMs } from '../../contract/rules/scene-linkage.ts';

function booleanOf(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true') return true;
  if (value === 0 || value === '0' || value === 'false') return false;
  return undefined;
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function order(op: TriggerOperation, a: number, b: number): boolean {
  switch (op) {
    case 'EQUAL':
      return a === b;
    case 'NOT_EQUAL':
      return a !== b;
    case 'LESS':
      return a < b;
    case 'LESS_OR_EQUAL':
      return a <= b;
    case 'GREATER':
      return a > b;
    case 'GREATER_OR_EQUAL':
      return a >= b;
    default:
      return false;
  }
}

function text(op: TriggerOperation, a: string, b: string): boolean {
  switch (op) {
    case 'EQUAL':
      return a === b;
    case 'NOT_EQUAL':
      return a !== b;
    case 'STARTS_WITH':
      return a.startsWith(b);
    case 'ENDS_WITH':
      return a.endsWith(b);
    case 'CONTAINS':
      return a.includes(b);
    case 'NOT_CONTAINS':
      return !a.includes(b);
    default:
      return false;
  }
}

/** Whether `actual` (a reported value) compares true against `expected`. */
export function compareValue(op: TriggerOperation, valueType: TriggerValueType, actual: unknown, expected: SceneValue, ignoreCase = false): boolean {
  switch (valueType) {
    case 'NUMERIC': {
      const a = numberOf(actual);
      const b = numberOf(expected);
      return a !== undefined && b !== undefined && order(op, a, b);
    }
    case 'DATE_TIME': {
      const a = dateTimeMs(actual);
      const b = dateTimeMs(expected);
      return a !== undefined && b !== undefined && order(op, a, b);
    }
    case 'BOOLEAN': {
      const a = booleanOf(actual);
      const b = booleanOf(expected);
      if (a === undefined || b === undefined) return false;
      return op === 'EQUAL' ? a === b : op === 'NOT_EQUAL' ? a !== b : false;
    }
    case 'STRING': {
      const a = textOf(actual);
      const b = textOf(expected);
      if (a === undefined || b === undefined) return false;
      return ignoreCase ? text(op, a.toLowerCase(), b.toLowerCase()) : text(op, a, b);
    }
  }
}
