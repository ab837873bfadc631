/**
 * Inline checks of the thing-model item drawer with the contract's limits and patterns
 * (server/contract/thing-model.ts), so the console refuses exactly what the server refuses and
 * says it with the server's text. Each check answers a key of the `errors` namespace (without the
 * `error.` prefix the server's keys carry) or null. Pure; the drawer turns them into Arco rules.
 */
import {
  BIT_MASK_MAX,
  BIT_POSITION_MAX,
  BOOL_NAME_MAX,
  ENUM_DESCRIPTION_MAX,
  ENUM_DESCRIPTION_PATTERN,
  ENUM_ITEMS_MAX,
  FUNCTION_NAME_MAX,
  FUNCTION_NAME_PATTERN,
  HEX_WORD_PATTERN,
  IDENTIFIER_MAX,
  IDENTIFIER_PATTERN,
  PARAMS_MAX,
  REGISTER_ADDRESS_MAX,
  REGISTER_COUNT_MAX,
  TCP_SOURCE_IDENTIFIER,
  TEXT_LENGTH_MAX,
  UNIT_MAX,
  VALUE_MAPPING_MAX,
  VALUE_MAPPING_TEXT_MAX,
  type AccessMode,
  type ModbusDataType,
  type ModbusOperationType,
} from '../../../server/contract/thing-model.ts';
import { isInt32, numberOf } from '../../../server/contract/numbers.ts';
import { isBitOperation, registerWidth, type ValueMappingRow } from './thingModelForm.ts';

/** A key of errors.json (`thingModel.number.int32`), with the values its text names. */
export type RuleProblem = { key: string; params?: Record<string, string | number> } | null;

const problem = (key: string, params?: Record<string, string | number>): RuleProblem => (params ? { key, params } : { key });

function blank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function text(value: unknown): string {
  return value === undefined || value === null ? '' : String(value).trim();
}


const functionNamePattern = new RegExp(FUNCTION_NAME_PATTERN, 'u');
const identifierPattern = new RegExp(IDENTIFIER_PATTERN, 'u');
const descriptionStart = new RegExp(ENUM_DESCRIPTION_PATTERN, 'u');
const hexWord = new RegExp(HEX_WORD_PATTERN);
const rawValuePattern = /^-?\d+(\.\d+)?$/;

export function functionNameProblem(value: unknown): RuleProblem {
  const v = text(value);
  if (!v) return problem('field.required');
  return v.length <= FUNCTION_NAME_MAX && functionNamePattern.test(v) ? null : problem('thingModel.functionName');
}

/** `tcp`: the product is TCP, where `source` is reserved for the device's raw frames. */
export function identifierProblem(value: unknown, tcp = false): RuleProblem {
  const v = text(value);
  if (!v) return problem('field.required');
  if (v.length > IDENTIFIER_MAX || !identifierPattern.test(v)) return problem('thingModel.identifier');
  return tcp && v === TCP_SOURCE_IDENTIFIER ? problem('thingModel.identifierReserved') : null;
}

/** An identifier an earlier entry of its list already has (parameters, STRUCT members), as the server reports it. */
export function duplicateParamProblem(value: unknown, index: number, identifiers: readonly unknown[]): RuleProblem {
  const v = text(value);
  return v && identifiers.some((other, i) => i < index && text(other) === v) ? problem('thingModel.paramDuplicate') : null;
}

/** Range bounds (required) and step (optional): int32 integers for INT, finite numbers for DOUBLE. */
export function numberProblem(value: unknown, integer: boolean, required: boolean): RuleProblem {
  if (blank(value)) return required ? problem('field.required') : null;
  const n = numberOf(value);
  if (n === undefined) return problem(integer ? 'thingModel.number.int32' : 'thingModel.number.invalid');
  return integer && !isInt32(n) ? problem('thingModel.number.int32') : null;
}

export function maxProblem(max: unknown, min: unknown, integer: boolean): RuleProblem {
  const own = numberProblem(max, integer, true);
  if (own) return own;
  const lo = numberOf(min);
  const hi = numberOf(max)!;
  return lo !== undefined && hi < lo ? problem('thingModel.number.maxBelowMin') : null;
}

export function stepProblem(step: unknown, min: unknown, max: unknown, integer: boolean): RuleProblem {
  const own = numberProblem(step, integer, false);
  if (own || blank(step)) return own;
  const s = numberOf(step)!;
  if (s <= 0) return problem('thingModel.number.stepPositive');
  const lo = numberOf(min);
  const hi = numberOf(max);
  return lo !== undefined && hi !== undefined && hi >= lo && s > hi - lo ? problem('thingModel.number.stepExceedsRange') : null;
}

export function unitProblem(value: unknown): RuleProblem {
  return text(value).length > UNIT_MAX ? problem('thingModel.unit') : null;
}

export function textLengthProblem(value: unknown): RuleProblem {
  if (blank(value)) return problem('field.required');
  const n = numberOf(value);
  return n !== undefined && Number.isInteger(n) && n >= 1 && n <= TEXT_LENGTH_MAX ? null : problem('thingModel.text.length');
}

export function boolNameProblem(value: unknown): RuleProblem {
  const v = text(value);
  return v.length >= 1 && v.length <= BOOL_NAME_MAX ? null : problem('thingModel.bool.name');
}

/** The open name (checked against the close name): both valid and different. */
export function boolOpenProblem(open: unknown, close: unknown): RuleProblem {
  return boolNameProblem(open) ?? (text(open) === text(close) ? problem('thingModel.bool.namesEqual') : null);
}

export function enumValueProblem(value: unknown, index: number, values: readonly unknown[]): RuleProblem {
  const n = numberOf(value);
  if (n === undefined || !isInt32(n)) return problem('thingModel.enum.value');
  return values.some((other, i) => i < index && numberOf(other) === n) ? problem('thingModel.enum.valueDuplicate') : null;
}

export function enumDescriptionProblem(value: unknown, index: number, descriptions: readonly unknown[]): RuleProblem {
  const v = text(value);
  if (v.length < 1 || v.length > ENUM_DESCRIPTION_MAX || !descriptionStart.test(v)) return problem('thingModel.enum.description');
  return descriptions.some((other, i) => i < index && text(other) === v) ? problem('thingModel.enum.descriptionDuplicate') : null;
}

export function enumItemsProblem(items: readonly unknown[] | undefined): RuleProblem {
  const n = items?.length ?? 0;
  return n >= 1 && n <= ENUM_ITEMS_MAX ? null : problem('thingModel.enum.items');
}

export function structMembersProblem(members: readonly unknown[] | undefined): RuleProblem {
  const n = members?.length ?? 0;
  return n >= 1 && n <= PARAMS_MAX ? null : problem('thingModel.struct.members');
}

export function paramsProblem(params: readonly unknown[] | undefined): RuleProblem {
  return (params?.length ?? 0) <= PARAMS_MAX ? null : problem('thingModel.params');
}

// ---- Modbus extension descriptor --------------------------------------------------------------

const readOnlyOperations: ReadonlySet<ModbusOperationType> = new Set([
  'COIL_READ',
  'DISCRETE_INPUT_READ',
  'HOLDING_REGISTER_READ',
  'INPUT_REGISTER_READ',
]);
const writeOnlyOperations: ReadonlySet<ModbusOperationType> = new Set(['COIL_WRITE', 'HOLDING_REGISTER_WRITE']);

/** Hex digits after the `0x` prefix the input shows, within [min, max]. */
function hexProblem(value: unknown, min: number, max: number, key: string): RuleProblem {
  const v = text(value);
  if (!v) return problem('field.required');
  const digits = v.replace(/^0[xX]/, '');
  if (!hexWord.test(`0x${digits}`)) return problem(key);
  const n = Number.parseInt(digits, 16);
  return n >= min && n <= max ? null : problem(key);
}

export function registerAddressProblem(value: unknown): RuleProblem {
  return hexProblem(value, 0, REGISTER_ADDRESS_MAX, 'thingModel.modbus.registerAddress');
}

/** The operation against the property's access mode: no read-only operation on rw, no write-only on r. */
export function operationProblem(operation: ModbusOperationType | undefined, accessMode: AccessMode | undefined): RuleProblem {
  if (!operation) return problem('field.required');
  if ((accessMode === 'rw' && readOnlyOperations.has(operation)) || (accessMode === 'r' && writeOnlyOperations.has(operation))) {
    return problem('thingModel.modbus.accessMismatch');
  }
  return null;
}

export function originalDataTypeProblem(type: ModbusDataType | undefined, operation: ModbusOperationType | undefined): RuleProblem {
  if (!type) return problem('field.required');
  return operation && isBitOperation(operation) && type !== 'BOOLEAN' ? problem('thingModel.modbus.coilDataType') : null;
}

export function scaleFactorProblem(value: unknown): RuleProblem {
  if (blank(value)) return null; // defaults to 1
  const n = numberOf(value);
  return n === undefined || n === 0 ? problem('thingModel.modbus.scaleFactor') : null;
}

export function bitPositionProblem(value: unknown): RuleProblem {
  if (blank(value)) return problem('thingModel.modbus.bitChoice');
  const n = numberOf(value);
  return n !== undefined && Number.isInteger(n) && n >= 0 && n <= BIT_POSITION_MAX ? null : problem('thingModel.modbus.bitPosition');
}

export function bitMaskProblem(value: unknown): RuleProblem {
  if (blank(value)) return problem('thingModel.modbus.bitChoice');
  return hexProblem(value, 1, BIT_MASK_MAX, 'thingModel.modbus.bitMask');
}

/** Registers only: 1–125, at least the raw type's width, required for STRING. */
export function registerCountProblem(value: unknown, type: ModbusDataType | undefined): RuleProblem {
  const width = type ? registerWidth(type) : 1;
  if (blank(value)) return width === undefined ? problem('field.required') : null;
  const n = numberOf(value);
  if (n === undefined || !Number.isInteger(n) || n < 1 || n > REGISTER_COUNT_MAX) return problem('thingModel.modbus.registerCount');
  return width !== undefined && n < width ? problem('thingModel.modbus.registerCountTooSmall', { min: width }) : null;
}

/** A value-mapping row: numeric raw value, unique, with a display text of 1–32 characters. */
export function valueMappingRawProblem(value: unknown, index: number, rows: readonly ValueMappingRow[]): RuleProblem {
  const v = text(value);
  if (!rawValuePattern.test(v)) return problem('thingModel.modbus.valueMapping');
  return rows.some((r, i) => i < index && text(r.raw) === v) ? problem('thingModel.modbus.valueMapping') : null;
}

export function valueMappingTextProblem(value: unknown): RuleProblem {
  const v = text(value);
  return v.length >= 1 && v.length <= VALUE_MAPPING_TEXT_MAX ? null : problem('thingModel.modbus.valueMapping');
}

export function valueMappingProblem(rows: readonly unknown[] | undefined): RuleProblem {
  return (rows?.length ?? 0) <= VALUE_MAPPING_MAX ? null : problem('thingModel.modbus.valueMapping');
}
