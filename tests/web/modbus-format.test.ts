import { describe, expect, it } from 'vitest';
import type { ModbusPoint } from '../../server/contract/modbus.ts';
import {
  hexByteCount,
  hexWord,
  mergeReadings,
  planRows,
  pointAddress,
  pointRefreshMs,
  pointValueText,
  spacedHex,
  writeFunctionCode,
} from '../../web/features/modbus/modbusFormat.ts';
import { modbusTcpHostValid, tcpBodyOf, tcpValuesOf } from '../../web/features/device/tcpForm.ts';

function point(identifier: string, value: ModbusPoint['value']): ModbusPoint {
  return {
    identifier,
    name: identifier,
    value,
    ts: 1,
    outcome: 'OK',
    exceptionCode: null,
    message: null,
    accessMode: 'r',
    writable: false,
    polled: true,
    extensionDesc: { operationType: 'HOLDING_REGISTER_READ', registerAddress: 0, originalDataType: 'UINT16_AB', scaleFactor: 1, registerCount: 1 },
  };
}

describe('frames as hex', () => {
  it('spaces the bytes of a frame in upper case', () => {
    expect(spacedHex('0103a00000020c0b')).toBe('01 03 A0 00 00 02 0C 0B');
  });

  it('ignores spaces and other separators already there and keeps a stray odd digit last', () => {
    expect(spacedHex('01 03:0')).toBe('01 03 0');
    expect(spacedHex('')).toBe('');
  });

  it('counts bytes, an odd trailing digit as one', () => {
    expect(hexByteCount('010300')).toBe(3);
    expect(hexByteCount('01 03 0')).toBe(3);
    expect(hexByteCount('')).toBe(0);
  });

  it('writes register addresses as four hex digits', () => {
    expect(hexWord(0)).toBe('0x0000');
    expect(hexWord(0x1a)).toBe('0x001A');
    expect(hexWord(0xffff)).toBe('0xFFFF');
  });
});

describe('request plan table', () => {
  it('turns each request into function code, object, address range, count and points, in order', () => {
    const rows = planRows([
      { function: 3, start: 0x10, count: 12, identifiers: ['voltage', 'current'] },
      { function: 1, start: 0, count: 1, identifiers: ['relay'] },
      { function: 4, start: 0xfffe, count: 2, identifiers: ['tail'] },
    ]);
    expect(rows.map(({ functionCode, object, start, end, count, identifiers }) => ({ functionCode, object, start, end, count, identifiers }))).toEqual([
      { functionCode: '03', object: 'holdingRegisters', start: '0x0010', end: '0x001B', count: 12, identifiers: ['voltage', 'current'] },
      { functionCode: '01', object: 'coils', start: '0x0000', end: '0x0000', count: 1, identifiers: ['relay'] },
      { functionCode: '04', object: 'inputRegisters', start: '0xFFFE', end: '0xFFFF', count: 2, identifiers: ['tail'] },
    ]);
    expect(new Set(rows.map((r) => r.key)).size).toBe(3);
  });

  it('keeps two requests at the same start apart (split after an illegal data address)', () => {
    const rows = planRows([
      { function: 3, start: 0, count: 1, identifiers: ['a'] },
      { function: 3, start: 0, count: 1, identifiers: ['b'] },
    ]);
    expect(rows[0]!.key).not.toBe(rows[1]!.key);
  });
});

describe('points', () => {
  it('shows a register range for multi-register points and one address otherwise', () => {
    expect(pointAddress({ registerAddress: 0x20, registerCount: 2 })).toBe('0x0020–0x0021');
    expect(pointAddress({ registerAddress: 0x20, registerCount: 1 })).toBe('0x0020');
    expect(pointAddress({ registerAddress: 5 })).toBe('0x0005');
  });

  it('shows values without float noise and a dash before the first read', () => {
    expect(pointValueText(0.1 + 0.2)).toBe('0.3');
    expect(pointValueText(220)).toBe('220');
    expect(pointValueText(true)).toBe('true');
    expect(pointValueText('运行')).toBe('运行');
    expect(pointValueText(null)).toBe('—');
  });

  it('names the write function the server uses: 05 coils, 06 one register, 16 wider', () => {
    expect(writeFunctionCode({ operationType: 'COIL_READ_WRITE' })).toBe('05');
    expect(writeFunctionCode({ operationType: 'HOLDING_REGISTER_WRITE', registerCount: 1 })).toBe('06');
    expect(writeFunctionCode({ operationType: 'HOLDING_REGISTER_READ_WRITE', registerCount: 2 })).toBe('16');
  });

  it('applies the readings of a "read now" answer and leaves other points as they were', () => {
    const merged = mergeReadings([point('a', 1), point('b', 2)], [{ identifier: 'b', value: null, ts: 9, outcome: 'TIMEOUT', exceptionCode: null, message: 'late' }]);
    expect(merged[0]).toEqual(point('a', 1));
    expect(merged[1]).toMatchObject({ identifier: 'b', value: null, ts: 9, outcome: 'TIMEOUT', message: 'late', polled: true });
  });

  it('refreshes at the polling period, between 1 s and 10 s', () => {
    expect(pointRefreshMs(100)).toBe(1_000);
    expect(pointRefreshMs(5_000)).toBe(5_000);
    expect(pointRefreshMs(3_600_000)).toBe(10_000);
  });
});

describe('device form TCP fields', () => {
  it('sends an empty registration as null (the access token) and a typed one with its format', () => {
    const values = { ...tcpValuesOf(null), registration: '  ' };
    expect(tcpBodyOf(values, true)).toEqual({ registration: null, modbusTcp: null });
    expect(tcpBodyOf({ ...values, registrationFormat: 'HEX', registration: ' 01 02 ' }, true).registration).toEqual({ format: 'HEX', value: '01 02' });
  });

  it('sends the Modbus TCP target only while its switch is on, and nothing TCP for other transports', () => {
    const on = { ...tcpValuesOf(null), modbusTcpEnabled: true, modbusTcpHost: ' 10.0.0.5 ', modbusTcpPort: 1502, registration: 'DTU1' };
    expect(tcpBodyOf(on, true)).toEqual({ registration: { format: 'ASCII', value: 'DTU1' }, modbusTcp: { host: '10.0.0.5', port: 1502 } });
    expect(tcpBodyOf({ ...on, modbusTcpEnabled: false }, true).modbusTcp).toBeNull();
    expect(tcpBodyOf(on, false)).toEqual({ registration: null, modbusTcp: null });
  });

  it('starts an edit from the device as stored', () => {
    expect(tcpValuesOf({ registration: { format: 'HEX', value: 'A1B2' }, modbusTcp: { host: 'plc', port: 502 } })).toEqual({
      registrationFormat: 'HEX',
      registration: 'A1B2',
      modbusTcpEnabled: true,
      modbusTcpHost: 'plc',
      modbusTcpPort: 502,
    });
  });

  it("takes the contract's hosts: IPv4 addresses and host names, not URLs or blanks", () => {
    expect(modbusTcpHostValid('192.168.1.20')).toBe(true);
    expect(modbusTcpHostValid(' plc-1.local ')).toBe(true);
    expect(modbusTcpHostValid('tcp://plc')).toBe(false);
    expect(modbusTcpHostValid('')).toBe(false);
    expect(modbusTcpHostValid('a'.repeat(256))).toBe(false);
  });
});
