/**
 * The item drawer's Modbus fields checked with the contract's rules (server/contract/rules/modbus.ts)
 * as the form holds them (thingModelForm.ts): an address or a mask is the hex digits `modbusBody`
 * sends after `0x`, the bit mode sends either a position or a mask, and the value-mapping rows become
 * one object, in which a raw value given twice would silently keep only its last row.
 */
import { requiredProblem } from '../../../server/contract/rules/field.ts';
import {
  bitChoiceProblem,
  bitMaskProblem,
  bitPositionProblem,
  registerAddressProblem,
  valueMappingRawProblem,
  valueMappingSizeProblem,
} from '../../../server/contract/rules/modbus.ts';
import { problem, repeatsEarlier, type Problem } from '../../../server/contract/rules/problem.ts';
import { hexWordOf, type ValueMappingRow } from './thingModelForm.ts';

export function registerAddressFieldProblem(digits: unknown): Problem | null {
  return requiredProblem(digits) ?? registerAddressProblem(hexWordOf(digits));
}

/** The position, when the bit mode is position (no mask is sent). */
export function bitPositionFieldProblem(value: unknown): Problem | null {
  return bitChoiceProblem(value, undefined) ?? bitPositionProblem(value);
}

/** The mask's digits, when the bit mode is mask (no position is sent). */
export function bitMaskFieldProblem(digits: unknown): Problem | null {
  return bitChoiceProblem(undefined, digits) ?? bitMaskProblem(hexWordOf(digits));
}

/** Row `index`'s raw value: numeric text that no earlier row has. */
export function valueMappingRawFieldProblem(raw: unknown, index: number, rows: readonly ValueMappingRow[]): Problem | null {
  const repeated = repeatsEarlier(raw, index, rows.map((r) => r.raw));
  return valueMappingRawProblem(raw) ?? (repeated ? problem('error.thingModel.modbus.valueMapping') : null);
}

export function valueMappingRowsProblem(rows: unknown): Problem | null {
  return valueMappingSizeProblem(Array.isArray(rows) ? rows.length : 0);
}
