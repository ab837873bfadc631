/**
 * Reads a property's Modbus extension descriptor as a client sent it (`ModbusDescriptorInputSchema`
 * checked its outline) with the rules of server/contract/rules/modbus.ts, and gives back the
 * descriptor to store: address and mask as numbers, scale factor and register count filled in. Pure.
 */
import {
  bitChoiceProblem,
  bitMaskProblem,
  bitsOnlyProblem,
  isBitOperation,
  operationProblem,
  originalDataTypeProblem,
  registerAddressProblem,
  registerCountProblem,
  registersOnlyProblem,
  registerWidth,
  scaleFactorProblem,
  valueMappingRawProblem,
  valueMappingSizeProblem,
  valueMappingTextProblem,
  wordOf,
} from '../../contract/rules/modbus.ts';
import {
  BIT_MASK_MAX,
  REGISTER_ADDRESS_MAX,
  type AccessMode,
  type ModbusDescriptor,
  type ModbusDescriptorInput,
} from '../../contract/thing-model.ts';
import { join, type Found } from './data-type-rules.ts';

function valueMappingOf(raw: Record<string, string>, path: string, found: Found): Record<string, string> | undefined {
  const entries = Object.entries(raw);
  const size = valueMappingSizeProblem(entries.length);
  if (size) {
    found.check(path, size);
    return undefined;
  }
  const before = found.size;
  const mapping: Record<string, string> = {};
  for (const [key, text] of entries) {
    const entry = valueMappingRawProblem(key) ?? valueMappingTextProblem(text);
    if (entry) found.check(join(path, key), entry);
    else mapping[key] = text.trim();
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
  const bitOperation = isBitOperation(operationType);

  found.check(at('registerAddress'), registerAddressProblem(raw.registerAddress));
  found.check(at('originalDataType'), originalDataTypeProblem(originalDataType, operationType));
  found.check(at('operationType'), operationProblem(operationType, accessMode));
  found.check(at('scaleFactor'), scaleFactorProblem(raw.scaleFactor));
  if (originalDataType === 'BITS') {
    found.check(at('bitPosition'), bitChoiceProblem(raw.bitPosition, raw.bitMask));
    if (raw.bitMask !== undefined) found.check(at('bitMask'), bitMaskProblem(raw.bitMask));
  } else {
    found.check(at('bitPosition'), bitsOnlyProblem(raw.bitPosition, originalDataType));
    found.check(at('bitMask'), bitsOnlyProblem(raw.bitMask, originalDataType));
  }
  const count = bitOperation ? registersOnlyProblem(raw.registerCount, operationType) : registerCountProblem(raw.registerCount, originalDataType);
  found.check(at('registerCount'), count);
  const valueMapping = raw.valueMapping && valueMappingOf(raw.valueMapping, at('valueMapping'), found);

  const registerAddress = wordOf(raw.registerAddress, 0, REGISTER_ADDRESS_MAX);
  const bitMask = originalDataType === 'BITS' && raw.bitMask !== undefined ? wordOf(raw.bitMask, 1, BIT_MASK_MAX) : undefined;
  const registerCount = bitOperation ? undefined : (raw.registerCount ?? registerWidth(originalDataType));
  const scaleFactor = raw.scaleFactor ?? 1;
  const hasPosition = raw.bitPosition !== undefined;
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
