/**
 * The one table of reported values that are stored in their property's type although the device
 * sent another JSON type (telemetry and client attributes against the published thing model):
 *
 * | property       | converts                                                 | stored as    |
 * |----------------|----------------------------------------------------------|--------------|
 * | BOOL           | `1`, `0`, `"1"`, `"0"`, `"true"`, `"false"`              | true / false |
 * | INT, ENUM      | a string of an integer: optional `-`, 1–15 digits (`"12"`)| the number   |
 * | DOUBLE         | a string of a decimal number (`"-12.5"`, `"3"`, no exponent) | the number |
 *
 * Everything else is stored as sent and the model check flags it when it does not fit (`2` or
 * `"yes"` for a BOOL, `"12a"` or `" 12"` for an INT, `12` for a TEXT). A converted value is then
 * checked as any other (range, step, enum members), so `"150"` for an INT of 0–100 is stored as
 * 150 with its out-of-range flag. Devices (and ThingsBoard's SDKs) send booleans as 0/1 or text and
 * numbers as text; storing them in the model's type keeps one type per series, which the history,
 * the aggregates and the console's charts rely on.
 */
import type { DataType } from '../thing-model.ts';

const INTEGER_TEXT = /^-?[0-9]{1,15}$/;
const DECIMAL_TEXT = /^-?[0-9]{1,15}(?:\.[0-9]{1,15})?$/;

/** `value` in the type of a property of `type` when the table converts it; else `value` itself. */
export function propertyValueOf(type: DataType['type'], value: unknown): unknown {
  switch (type) {
    case 'BOOL':
      if (typeof value === 'boolean') return value;
      if (value === 1 || value === '1' || value === 'true') return true;
      if (value === 0 || value === '0' || value === 'false') return false;
      return value;
    case 'INT':
    case 'ENUM':
      return typeof value === 'string' && INTEGER_TEXT.test(value) ? Number(value) : value;
    case 'DOUBLE':
      return typeof value === 'string' && DECIMAL_TEXT.test(value) ? Number(value) : value;
    default:
      return value;
  }
}

/**
 * The words of an out-of-range reason between the value and the limit. Stored flags are these
 * reasons (server/modules/thing-model/thing-model-check.ts writes them), so history aggregates find
 * out-of-range values by them.
 */
export const outOfRangeWords = { below: ' is below the minimum ', above: ' is above the maximum ' } as const;

/** Whether a stored value's flag says it was out of its property's range (what history aggregates leave out by default). */
export function flaggedOutOfRange(flag: string | null): boolean {
  return flag !== null && (flag.includes(outOfRangeWords.below) || flag.includes(outOfRangeWords.above));
}
