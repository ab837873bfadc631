import { describe, expect, it } from 'vitest';
import { crc16, rtuFrame } from '../../server/modules/modbus/modbus-crc.ts';
import { answerOf, readRequest, writeRegistersRequest } from '../../server/modules/modbus/modbus-pdu.ts';
import { RtuReader } from '../../server/modules/modbus/rtu-reader.ts';
import type { PlanPoint } from '../../server/modules/modbus/request-plan.ts';
import { planRequests, requestKey } from '../../server/modules/modbus/request-plan.ts';

describe('CRC16 and RTU frames', () => {
  it('computes the Modbus CRC of the textbook frames', () => {
    // 01 03 00 00 00 0A → CRC C5CD (sent CD C5).
    expect(rtuFrame(1, readRequest(3, 0, 10)).toString('hex')).toBe('01030000000ac5cd');
    expect(crc16(Buffer.from('123456789'))).toBe(0x4b37);
  });

  it('builds write requests with 06 for one register and 16 for more', () => {
    expect(writeRegistersRequest(10, [42]).toString('hex')).toBe('06000a002a');
    expect(writeRegistersRequest(10, [1, 2]).toString('hex')).toBe('10000a0002040001' + '0002');
  });
});

describe('RTU reader', () => {
  const request = readRequest(3, 0, 2);
  const answer = rtuFrame(1, Buffer.from([3, 4, 0, 1, 0, 2]));

  it('reads an answer that arrives in pieces', () => {
    const reader = new RtuReader();
    reader.feed(answer.subarray(0, 3));
    expect(reader.match(1, request)).toBeNull();
    reader.feed(answer.subarray(3));
    const m = reader.match(1, request);
    expect(m).toMatchObject({ kind: 'pdu' });
    expect(answerOf(request, (m as { pdu: Buffer }).pdu)).toEqual({ kind: 'registers', registers: [1, 2] });
  });

  it('skips garbage and another slave before the answer, counting the bytes', () => {
    const reader = new RtuReader();
    reader.feed(Buffer.concat([Buffer.from([0x55, 0xaa, 0x02]), answer]));
    expect(reader.match(1, request)).toMatchObject({ kind: 'pdu' });
    expect(reader.takeDropped()).toBe(3);
  });

  it('strips a DATA_CARRY prefix', () => {
    const reader = new RtuReader(Buffer.from('DTU1'));
    reader.feed(Buffer.concat([Buffer.from('DTU1'), answer]));
    expect(reader.match(1, request)).toMatchObject({ kind: 'pdu' });
    expect(reader.takeDropped()).toBe(0);
  });

  it('reports a bad CRC and an exception', () => {
    const reader = new RtuReader();
    const bad = Buffer.from(answer);
    bad[bad.length - 1] = bad[bad.length - 1]! ^ 0xff;
    reader.feed(bad);
    expect(reader.match(1, request)).toEqual({ kind: 'crc' });
    reader.feed(rtuFrame(1, Buffer.from([0x83, 2])));
    const m = reader.match(1, request) as { pdu: Buffer };
    expect(answerOf(request, m.pdu)).toEqual({ kind: 'exception', code: 2 });
  });

  it('refuses an answer of the wrong length', () => {
    expect(answerOf(request, Buffer.from([3, 2, 0, 1]))).toEqual({ kind: 'bad' });
    expect(answerOf(request, Buffer.from([4, 4, 0, 1, 0, 2]))).toEqual({ kind: 'bad' });
  });
});

describe('request coalescing', () => {
  const point = (identifier: string, registerAddress: number, originalDataType: 'UINT16_AB' | 'FLOAT_ABCD' = 'UINT16_AB', operationType: 'HOLDING_REGISTER_READ' | 'INPUT_REGISTER_READ' | 'COIL_READ' | 'HOLDING_REGISTER_WRITE' = 'HOLDING_REGISTER_READ'): PlanPoint => ({
    identifier,
    descriptor: { operationType, registerAddress, originalDataType: operationType === 'COIL_READ' ? 'BOOLEAN' : originalDataType, scaleFactor: 1 },
  });

  it('joins adjacent registers and bridges gaps up to gapMax', () => {
    const points = [point('a', 0), point('b', 1, 'FLOAT_ABCD'), point('c', 11), point('d', 30)];
    expect(planRequests(points, 8)).toEqual([
      { function: 3, start: 0, count: 12, identifiers: ['a', 'b', 'c'] },
      { function: 3, start: 30, count: 1, identifiers: ['d'] },
    ]);
    expect(planRequests(points, 0).map((r) => [r.start, r.count])).toEqual([[0, 3], [11, 1], [30, 1]]);
  });

  it('keeps read functions apart and leaves write-only points out', () => {
    const points = [point('h', 0), point('i', 1, 'UINT16_AB', 'INPUT_REGISTER_READ'), point('c', 0, 'UINT16_AB', 'COIL_READ'), point('w', 2, 'UINT16_AB', 'HOLDING_REGISTER_WRITE')];
    expect(planRequests(points, 8).map((r) => [r.function, r.identifiers])).toEqual([[1, ['c']], [3, ['h']], [4, ['i']]]);
  });

  it('stays within 125 registers', () => {
    const points = Array.from({ length: 130 }, (_, i) => point(`p${i}`, i));
    expect(planRequests(points, 8).map((r) => r.count)).toEqual([125, 5]);
  });

  it('splits a refused bridged request into contiguous runs', () => {
    const points = [point('a', 100), point('b', 101), point('c', 108)];
    const [bridged] = planRequests(points, 8);
    expect(bridged).toMatchObject({ start: 100, count: 9 });
    const split = planRequests(points, 8, new Set([requestKey(bridged!)]));
    expect(split.map((r) => [r.start, r.count, r.identifiers])).toEqual([[100, 2, ['a', 'b']], [108, 1, ['c']]]);
  });
});
