import { describe, expect, it } from 'vitest';
import type { ModbusDataType, ModbusDescriptor } from '../../server/contract/thing-model.ts';
import { decodePoint, descriptorFits, encodePoint } from '../../server/modules/modbus/point-codec.ts';

const hr = (originalDataType: ModbusDataType, extra: Partial<ModbusDescriptor> = {}): ModbusDescriptor => ({
  operationType: 'HOLDING_REGISTER_READ_WRITE',
  registerAddress: 0,
  originalDataType,
  scaleFactor: 1,
  ...extra,
});

/** Registers of big-endian bytes ABCD… reordered as `order` lays them on the wire. */
function wire(be: number[], order: string): number[] {
  const letters = 'ABCDEFGH';
  const bytes = order.split('').map((c) => be[letters.indexOf(c)]!);
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i += 2) out.push((bytes[i]! << 8) | bytes[i + 1]!);
  return out;
}

const beOf = (write: (b: Buffer) => void, size: number): number[] => {
  const b = Buffer.alloc(size);
  write(b);
  return [...b];
};

describe('point codec: every data type × byte order', () => {
  const cases: [ModbusDataType, number, number[]][] = [
    ['INT16_AB', -1234, beOf((b) => b.writeInt16BE(-1234), 2)],
    ['INT16_BA', -1234, beOf((b) => b.writeInt16BE(-1234), 2)],
    ['UINT16_AB', 51234, beOf((b) => b.writeUInt16BE(51234), 2)],
    ['UINT16_BA', 51234, beOf((b) => b.writeUInt16BE(51234), 2)],
    ...(['ABCD', 'CDAB', 'BADC', 'DCBA'] as const).flatMap((order): [ModbusDataType, number, number[]][] => [
      [`INT32_${order}`, -123456789, beOf((b) => b.writeInt32BE(-123456789), 4)],
      [`UINT32_${order}`, 3123456789, beOf((b) => b.writeUInt32BE(3123456789), 4)],
      [`FLOAT_${order}`, 1.5, beOf((b) => b.writeFloatBE(1.5), 4)],
    ]),
  ];
  for (const [type, value, be] of cases) {
    const order = type.slice(type.indexOf('_') + 1);
    it(`reads and writes ${type}`, () => {
      const registers = wire(be, order);
      expect(decodePoint(hr(type), registers)).toBe(value);
      expect(encodePoint(hr(type), value)).toEqual({ registers });
    });
  }

  it('reads and writes DOUBLE as four big-endian registers', () => {
    const registers = wire(beOf((b) => b.writeDoubleBE(-2.75), 8), 'ABCDEFGH');
    expect(decodePoint(hr('DOUBLE'), registers)).toBe(-2.75);
    expect(encodePoint(hr('DOUBLE'), -2.75)).toEqual({ registers });
  });

  it('reads STRING up to the first NUL and writes it padded to its register count', () => {
    const d = hr('STRING', { registerCount: 3 });
    expect(decodePoint(d, [0x4142, 0x4300, 0x4444])).toBe('ABC');
    expect(encodePoint(d, 'ABC')).toEqual({ registers: [0x4142, 0x4300, 0] });
    expect(encodePoint(d, 'ABCDEFG')).toBeUndefined();
  });

  it('reads BOOLEAN registers and coils', () => {
    expect(decodePoint(hr('BOOLEAN'), [7])).toBe(true);
    expect(decodePoint(hr('BOOLEAN'), [0])).toBe(false);
    const coil: ModbusDescriptor = { operationType: 'COIL_READ_WRITE', registerAddress: 0, originalDataType: 'BOOLEAN', scaleFactor: 1 };
    expect(decodePoint(coil, [1])).toBe(true);
    expect(encodePoint(coil, false)).toEqual({ coil: false });
    expect(encodePoint(coil, 1)).toEqual({ coil: true });
    expect(encodePoint(coil, 'maybe')).toBeUndefined();
  });

  it('reads BITS by position and by mask', () => {
    expect(decodePoint(hr('BITS', { bitPosition: 3 }), [0b1000])).toBe(1);
    expect(decodePoint(hr('BITS', { bitPosition: 2 }), [0b1000])).toBe(0);
    expect(decodePoint(hr('BITS', { bitMask: 0x00f0 }), [0x0a50])).toBe(5);
    expect(encodePoint(hr('BITS', { bitPosition: 1 }), 1)).toBeUndefined();
  });
});

describe('point codec: scale and mapping', () => {
  it('multiplies by the scale factor without binary noise, and divides on write', () => {
    expect(decodePoint(hr('INT16_AB', { scaleFactor: 0.1 }), [3])).toBe(0.3);
    expect(decodePoint(hr('UINT16_AB', { scaleFactor: 0.01 }), [12345])).toBe(123.45);
    expect(decodePoint(hr('INT32_ABCD', { scaleFactor: 10 }), [0, 5])).toBe(50);
    expect(encodePoint(hr('INT16_AB', { scaleFactor: 0.1 }), 23.5)).toEqual({ registers: [235] });
  });

  it('refuses writes outside the raw type range', () => {
    expect(encodePoint(hr('INT16_AB'), 40000)).toBeUndefined();
    expect(encodePoint(hr('UINT16_AB'), -1)).toBeUndefined();
    expect(encodePoint(hr('UINT32_ABCD'), 2 ** 32)).toBeUndefined();
    expect(encodePoint(hr('INT16_AB', { scaleFactor: 0.1 }), 3276.8)).toBeUndefined();
    expect(encodePoint(hr('INT16_AB'), 'x')).toBeUndefined();
  });

  it('maps raw values to their text and the text back', () => {
    const d = hr('UINT16_AB', { valueMapping: { '0': 'stopped', '1': 'running' } });
    expect(decodePoint(d, [1])).toBe('running');
    expect(decodePoint(d, [2])).toBe(2);
    expect(encodePoint(d, 'stopped')).toEqual({ registers: [0] });
    expect(encodePoint(d, 'unknown')).toBeUndefined();
  });

  it('knows a register count too small for its type', () => {
    expect(descriptorFits(hr('FLOAT_ABCD', { registerCount: 1 }))).toBe(false);
    expect(descriptorFits(hr('FLOAT_ABCD'))).toBe(true);
    expect(descriptorFits(hr('STRING'))).toBe(false);
    expect(descriptorFits({ operationType: 'COIL_READ', registerAddress: 0, originalDataType: 'INT16_AB', scaleFactor: 1 })).toBe(false);
  });
});
