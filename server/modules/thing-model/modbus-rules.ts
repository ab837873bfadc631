/**
 * The Modbus extension descriptor rules of server/contract/thing-model.ts (`ModbusDescriptorInputSchema`):
 * address and mask as numbers or `0x…` text, coils hold BOOLEAN, scale factor not 0, bit position or
 * mask for BITS only, register count for registers only and wide enough for the data type, operation
 * direction against the property's access mode, value mapping. Pure.
 */
import {
  BIT_MASK_MAX,
  HEX_WORD_PATTERN,
  REGISTER_ADDRESS_MAX,
  VALUE_MAPPING_MAX,
  VALUE_MAPPING_TEXT_MAX,
  type AccessMode,
  type ModbusDataType,
  type ModbusDescriptor,
  type ModbusDescriptorInput,
  type ModbusOperationType,
} from '../../contract/thing-model.ts';
import { join, type Found } from './data-type-rules.ts';

const hexWord = new RegExp(HEX_WORD_PATTERN);
const decimal = /^\d{1,5}$/;
const rawValue = /^-?\d+(\.\d+)?$/;

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

/** A 16-bit word given as a number, decimal text or `0x…` text, within [min, max]. */
function wordOf(value: unknown, min: number, max: number): number | undefined {
  let n: number | undefined;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && hexWord.test(value)) n = Number.parseInt(value.slice(2), 16);
  else if (typeof value === 'string' && decimal.test(value)) n = Number(value);
  return n !== undefined && Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

function valueMappingOf(raw: Record<string, string>, path: string, found: Found): Record<string, string> | undefined {
  const entries = Object.entries(raw);
  if (entries.length > VALUE_MAPPING_MAX) {
    found.add(path, 'error.thingModel.modbus.valueMapping');
    return undefined;
  }
  const before = found.size;
  const mapping: Record<string, string> = {};
  for (const [key, text] of entries) {
    const display = typeof text === 'string' ? text.trim() : '';
    if (!rawValue.test(key) || display.length < 1 || display.length > VALUE_MAPPING_TEXT_MAX) {
      found.add(join(path, key), 'error.thingModel.modbus.valueMapping');
    } else mapping[key] = display;
  }
  return found.size > before ? undefined : mapping;
}

/**
 * The stored descriptor of a property with `accessMode`, or undefined with the violations under
 * `path` (`extensionDesc`).
 */
export function parseModbusDescriptor(
  raw: ModbusDescriptorInput,
  accessMode: AccessMode | null,
  path: string,
  found: Found,
): ModbusDescriptor | undefined {
  const before = found.size;
  const at = (field: string): string => join(path, field);
  const { operationType, originalDataType } = raw;

  const registerAddress = wordOf(raw.registerAddress, 0, REGISTER_ADDRESS_MAX);
  if (registerAddress === undefined) found.add(at('registerAddress'), 'error.thingModel.modbus.registerAddress');

  const bitOperation = isBitOperation(operationType);
  if (bitOperation && originalDataType !== 'BOOLEAN') found.add(at('originalDataType'), 'error.thingModel.modbus.coilDataType');

  if ((accessMode === 'rw' && readOnly.has(operationType)) || (accessMode === 'r' && writeOnly.has(operationType))) {
    found.add(at('operationType'), 'error.thingModel.modbus.accessMismatch');
  }

  const scaleFactor = raw.scaleFactor ?? 1;
  if (!Number.isFinite(scaleFactor) || scaleFactor === 0) found.add(at('scaleFactor'), 'error.thingModel.modbus.scaleFactor');

  let bitMask: number | undefined;
  const hasPosition = raw.bitPosition !== undefined;
  const hasMask = raw.bitMask !== undefined;
  if (originalDataType === 'BITS') {
    if (hasPosition === hasMask) found.add(at('bitPosition'), 'error.thingModel.modbus.bitChoice');
    if (hasMask) {
      bitMask = wordOf(raw.bitMask, 1, BIT_MASK_MAX);
      if (bitMask === undefined) found.add(at('bitMask'), 'error.thingModel.modbus.bitMask');
    }
  } else {
    if (hasPosition) found.add(at('bitPosition'), 'error.thingModel.modbus.bitsOnly');
    if (hasMask) found.add(at('bitMask'), 'error.thingModel.modbus.bitsOnly');
  }

  let registerCount: number | undefined;
  if (bitOperation) {
    if (raw.registerCount !== undefined) found.add(at('registerCount'), 'error.thingModel.modbus.registerCountRegistersOnly');
  } else {
    const width = registerWidth(originalDataType);
    registerCount = raw.registerCount ?? width;
    if (registerCount === undefined) found.add(at('registerCount'), 'error.field.required');
    else if (width !== undefined && registerCount < width) {
      found.add(at('registerCount'), 'error.thingModel.modbus.registerCountTooSmall', { min: width });
    }
  }

  const valueMapping = raw.valueMapping && valueMappingOf(raw.valueMapping, at('valueMapping'), found);

  if (found.size > before || registerAddress === undefined) return undefined;
  return {
    operationType,
    registerAddress,
    originalDataType,
    scaleFactor,
    ...(hasPosition ? { bitPosition: raw.bitPosition } : {}),
    ...(bitMask !== undefined ? { bitMask } : {}),
    ...(registerCount !== undefined ? { registerCount } : {}),
    ...(valueMapping && Object.keys(valueMapping).length ? { valueMapping } : {}),
  };
}
