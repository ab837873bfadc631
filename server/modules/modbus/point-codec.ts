/**
 * Register values ⇄ property values by a Modbus descriptor (server/contract/thing-model.ts,
 * `modbusDataTypes`): byte order, scale factor (value = raw × scale), bit position or mask, value
 * mapping. Registers are 16-bit words as the slave sends them, first register first.
 */
import type { ModbusDataType, ModbusDescriptor } from '../../contract/thing-model.ts';
import { isBitOperation, registerWidth } from '../../contract/rules/modbus.ts';

export type PointValue = number | boolean | string;

/** Registers (or coils) a descriptor reads: its register count, the type's width, 1 for bits. */
export function pointSpan(d: ModbusDescriptor): number {
  if (isBitOperation(d.operationType)) return 1;
  return d.registerCount ?? registerWidth(d.originalDataType) ?? 1;
}

/** The descriptor cannot be read as described (a count below its type's width): BAD_DESCRIPTOR. */
export function descriptorFits(d: ModbusDescriptor): boolean {
  if (isBitOperation(d.operationType)) return d.originalDataType === 'BOOLEAN';
  const width = registerWidth(d.originalDataType);
  return width === undefined ? d.registerCount !== undefined : pointSpan(d) >= width;
}

/** Big-endian bytes ABCD… of the first `width` registers, in the order the data type names. */
function bigEndianBytes(type: ModbusDataType, registers: readonly number[], width: number): Buffer {
  const wire = Buffer.alloc(width * 2);
  for (let i = 0; i < width; i++) wire.writeUInt16BE(registers[i]! & 0xffff, i * 2);
  const order = type.slice(type.indexOf('_') + 1);
  if (order === 'AB' || order === 'ABCD' || type === 'DOUBLE') return wire;
  if (order === 'BA') return Buffer.from([wire[1]!, wire[0]!]);
  if (order === 'CDAB') return Buffer.from([wire[2]!, wire[3]!, wire[0]!, wire[1]!]);
  if (order === 'BADC') return Buffer.from([wire[1]!, wire[0]!, wire[3]!, wire[2]!]);
  return Buffer.from([wire[3]!, wire[2]!, wire[1]!, wire[0]!]);
}

/** The wire registers of big-endian bytes in the data type's order (the inverse of bigEndianBytes). */
function wireRegisters(type: ModbusDataType, be: Buffer): number[] {
  // Every reordering above is its own inverse.
  const wire = bigEndianBytes(type, registersOf(be), be.length / 2);
  return registersOf(wire);
}

function registersOf(bytes: Buffer): number[] {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i += 2) out.push(bytes.readUInt16BE(i));
  return out;
}

/** The raw number (or text, or flag) before scale and mapping. */
function rawOf(d: ModbusDescriptor, registers: readonly number[]): number | boolean | string {
  const type = d.originalDataType;
  switch (type) {
    case 'BOOLEAN':
      return registers[0] !== 0;
    case 'BITS': {
      const word = registers[0]!;
      if (d.bitPosition !== undefined) return (word >> d.bitPosition) & 1;
      const mask = d.bitMask ?? 1;
      return (word & mask) >>> trailingZeros(mask);
    }
    case 'STRING': {
      const bytes = Buffer.alloc(pointSpan(d) * 2);
      registers.slice(0, pointSpan(d)).forEach((r, i) => bytes.writeUInt16BE(r, i * 2));
      // NUL-padded or space-padded fields: the text ends at the first NUL, trailing spaces dropped.
      const end = bytes.indexOf(0);
      return bytes.subarray(0, end === -1 ? bytes.length : end).toString('latin1').trimEnd();
    }
    case 'DOUBLE':
      return bigEndianBytes(type, registers, 4).readDoubleBE(0);
    default: {
      const width = registerWidth(type)!;
      const be = bigEndianBytes(type, registers, width);
      if (type.startsWith('INT16')) return be.readInt16BE(0);
      if (type.startsWith('UINT16')) return be.readUInt16BE(0);
      if (type.startsWith('INT32')) return be.readInt32BE(0);
      if (type.startsWith('UINT32')) return be.readUInt32BE(0);
      return be.readFloatBE(0);
    }
  }
}

function trailingZeros(mask: number): number {
  let n = 0;
  while (n < 16 && ((mask >> n) & 1) === 0) n++;
  return n;
}

/** Integer types scaled by a decimal factor: 123 × 0.1 is 12.3, not 12.300000000000001. */
function scaled(raw: number, d: ModbusDescriptor): number {
  if (d.scaleFactor === 1) return raw;
  const v = raw * d.scaleFactor;
  return d.originalDataType.startsWith('FLOAT') || d.originalDataType === 'DOUBLE' ? v : Number.parseFloat(v.toPrecision(12));
}

function mapped(value: number | boolean, d: ModbusDescriptor): PointValue {
  if (!d.valueMapping) return value;
  const n = typeof value === 'boolean' ? Number(value) : value;
  for (const [raw, text] of Object.entries(d.valueMapping)) if (Number(raw) === n) return text;
  return value;
}

/** The value of a point whose registers (or coil) are `registers` (bits as 0/1). */
export function decodePoint(d: ModbusDescriptor, registers: readonly number[]): PointValue {
  if (isBitOperation(d.operationType)) return mapped(registers[0] !== 0, d);
  const raw = rawOf(d, registers);
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'boolean') return mapped(raw, d);
  return mapped(d.originalDataType === 'BITS' ? raw : scaled(raw, d), d);
}

/** What a write sends: a coil state or registers; undefined when the value does not fit the point. */
export type Encoded = { coil: boolean } | { registers: number[] };

const intRanges: Partial<Record<string, [number, number]>> = {
  INT16: [-0x8000, 0x7fff],
  UINT16: [0, 0xffff],
  INT32: [-0x80000000, 0x7fffffff],
  UINT32: [0, 0xffffffff],
};

/** A mapped text back to its raw number. */
function unmapped(value: PointValue, d: ModbusDescriptor): PointValue | undefined {
  if (typeof value !== 'string' || !d.valueMapping || d.originalDataType === 'STRING') return value;
  for (const [raw, text] of Object.entries(d.valueMapping)) if (text === value) return Number(raw);
  return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : undefined;
}

export function encodePoint(d: ModbusDescriptor, input: PointValue): Encoded | undefined {
  const value = unmapped(input, d);
  if (value === undefined) return undefined;
  const type = d.originalDataType;
  if (isBitOperation(d.operationType) || type === 'BOOLEAN') {
    const on = typeof value === 'boolean' ? value : value === 1 || value === '1' ? true : value === 0 || value === '0' ? false : undefined;
    if (on === undefined) return undefined;
    return isBitOperation(d.operationType) ? { coil: on } : { registers: [on ? 1 : 0] };
  }
  if (type === 'STRING') {
    if (typeof value !== 'string') return undefined;
    const span = pointSpan(d);
    if (value.length > span * 2 || !/^[\x20-\x7E]*$/.test(value)) return undefined;
    const bytes = Buffer.alloc(span * 2);
    bytes.write(value, 'latin1');
    return { registers: registersOf(bytes) };
  }
  // BITS would need a read-modify-write of the word; not offered.
  if (type === 'BITS' || typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const raw = value / d.scaleFactor;
  if (type === 'DOUBLE') {
    const be = Buffer.alloc(8);
    be.writeDoubleBE(raw);
    return { registers: registersOf(be) };
  }
  const width = registerWidth(type)!;
  const be = Buffer.alloc(width * 2);
  if (type.startsWith('FLOAT')) {
    if (Math.abs(raw) > 3.4028234663852886e38) return undefined;
    be.writeFloatBE(raw);
  } else {
    const n = Math.round(Number.parseFloat(raw.toPrecision(12)));
    const [min, max] = intRanges[type.slice(0, type.indexOf('_'))]!;
    if (n < min || n > max) return undefined;
    if (width === 1) be.writeUInt16BE(n & 0xffff);
    else be.writeUInt32BE(n >>> 0);
  }
  // A register count wider than the type: only the type's registers are written.
  return { registers: wireRegisters(type, be) };
}
