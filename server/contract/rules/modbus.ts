/**
 * Modbus extension descriptor rules (server/contract/thing-model.ts, `ModbusDescriptorInputSchema`,
 * lists them with their keys), on the descriptor as a client sends it. The server reads a descriptor
 * with these rules and stores what they accept (server/modules/thing-model/modbus-rules.ts); the
 * item drawer checks each field with them (web/features/thing-model/modbusFieldRules.ts reads the
 * form's hex digits as the `0x…` text it sends).
 */
import { numberOf } from '../numbers.ts';
import {
  BIT_MASK_MAX,
  BIT_POSITION_MAX,
  HEX_WORD_PATTERN,
  REGISTER_ADDRESS_MAX,
  REGISTER_COUNT_MAX,
  VALUE_MAPPING_MAX,
  VALUE_MAPPING_TEXT_MAX,
  type AccessMode,
  type ModbusDataType,
  type ModbusOperationType,
} from '../thing-model.ts';
import { isAbsent, problem, textWithin, type Problem } from './problem.ts';

const readOnly: ReadonlySet<ModbusOperationType> = new Set([
  'COIL_READ',
  'DISCRETE_INPUT_READ',
  'HOLDING_REGISTER_READ',
  'INPUT_REGISTER_READ',
]);
const writeOnly: ReadonlySet<ModbusOperationType> = new Set(['COIL_WRITE', 'HOLDING_REGISTER_WRITE']);

/** Coils and discrete inputs are single bits; the other operations address 16-bit registers. */
export function isBitOperation(operation: ModbusOperationType): boolean {
  return operation.startsWith('COIL_') || operation.startsWith('DISCRETE_INPUT_');
}

/** Registers a value of this type occupies; undefined for STRING, whose length the user gives. */
export function registerWidth(type: ModbusDataType): number | undefined {
  if (type === 'STRING') return undefined;
  if (type === 'DOUBLE') return 4;
  if (/^(U?INT32|FLOAT)_/.test(type)) return 2;
  return 1;
}

const hexWord = new RegExp(HEX_WORD_PATTERN);
const decimalWord = /^\d{1,5}$/;

/** A 16-bit word given as a number, decimal text or `0x…` text, within [min, max]. */
export function wordOf(value: unknown, min: number, max: number): number | undefined {
  let n: number | undefined;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && hexWord.test(value)) n = Number.parseInt(value.slice(2), 16);
  else if (typeof value === 'string' && decimalWord.test(value)) n = Number(value);
  return n !== undefined && Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

export function registerAddressProblem(value: unknown): Problem | null {
  return wordOf(value, 0, REGISTER_ADDRESS_MAX) === undefined ? problem('error.thingModel.modbus.registerAddress') : null;
}

/** The operation against the property's access mode: no read-only operation on rw, no write-only on r. */
export function operationProblem(operation: ModbusOperationType | undefined, accessMode: AccessMode | null | undefined): Problem | null {
  if (!operation) return problem('error.field.required');
  if ((accessMode === 'rw' && readOnly.has(operation)) || (accessMode === 'r' && writeOnly.has(operation))) {
    return problem('error.thingModel.modbus.accessMismatch');
  }
  return null;
}

/** Coils and discrete inputs hold BOOLEAN only. */
export function originalDataTypeProblem(type: ModbusDataType | undefined, operation: ModbusOperationType | undefined): Problem | null {
  if (!type) return problem('error.field.required');
  return operation && isBitOperation(operation) && type !== 'BOOLEAN' ? problem('error.thingModel.modbus.coilDataType') : null;
}

/** A number other than 0; left out means 1. */
export function scaleFactorProblem(value: unknown): Problem | null {
  if (isAbsent(value)) return null;
  const n = numberOf(value);
  return n === undefined || n === 0 ? problem('error.thingModel.modbus.scaleFactor') : null;
}

/** BITS takes exactly one of a bit position and a bit mask. */
export function bitChoiceProblem(bitPosition: unknown, bitMask: unknown): Problem | null {
  return isAbsent(bitPosition) === isAbsent(bitMask) ? problem('error.thingModel.modbus.bitChoice') : null;
}

/** A bit position or a bit mask given for another data type than BITS. */
export function bitsOnlyProblem(value: unknown, type: ModbusDataType): Problem | null {
  return type !== 'BITS' && !isAbsent(value) ? problem('error.thingModel.modbus.bitsOnly') : null;
}

export function bitPositionProblem(value: unknown): Problem | null {
  const n = numberOf(value);
  return n !== undefined && Number.isInteger(n) && n >= 0 && n <= BIT_POSITION_MAX ? null : problem('error.thingModel.modbus.bitPosition');
}

export function bitMaskProblem(value: unknown): Problem | null {
  return wordOf(value, 1, BIT_MASK_MAX) === undefined ? problem('error.thingModel.modbus.bitMask') : null;
}

/**
 * Holding and input registers: 1 to REGISTER_COUNT_MAX, at least the data type's width; left out
 * it is the width, so STRING (no width) needs one.
 */
export function registerCountProblem(value: unknown, type: ModbusDataType | undefined): Problem | null {
  const width = type ? registerWidth(type) : 1;
  if (isAbsent(value)) return width === undefined ? problem('error.field.required') : null;
  const n = numberOf(value);
  if (n === undefined || !Number.isInteger(n) || n < 1 || n > REGISTER_COUNT_MAX) return problem('error.thingModel.modbus.registerCount');
  return width !== undefined && n < width ? problem('error.thingModel.modbus.registerCountTooSmall', { min: width }) : null;
}

/** Coils and discrete inputs take no register count. */
export function registersOnlyProblem(value: unknown, operation: ModbusOperationType): Problem | null {
  return isBitOperation(operation) && !isAbsent(value) ? problem('error.thingModel.modbus.registerCountRegistersOnly') : null;
}

/** At most VALUE_MAPPING_MAX entries. */
export function valueMappingSizeProblem(count: number): Problem | null {
  return count > VALUE_MAPPING_MAX ? problem('error.thingModel.modbus.valueMapping') : null;
}

const rawValue = /^-?\d+(\.\d+)?$/;

/** A mapped raw value: numeric text. */
export function valueMappingRawProblem(raw: unknown): Problem | null {
  return typeof raw === 'string' && rawValue.test(raw) ? null : problem('error.thingModel.modbus.valueMapping');
}

/** A raw value's display text: 1 to VALUE_MAPPING_TEXT_MAX characters once trimmed. */
export function valueMappingTextProblem(text: unknown): Problem | null {
  return textWithin(text, VALUE_MAPPING_TEXT_MAX) === undefined ? problem('error.thingModel.modbus.valueMapping') : null;
}
