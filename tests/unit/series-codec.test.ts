/**
 * The codecs of history blocks give back exactly what they were given: timestamps in any order,
 * numbers bit for bit (NaN payloads, -0, ±Infinity, huge magnitudes, long fractions), strings,
 * booleans, JSON texts and flags, mixed within one series; and they are small on sensor data.
 */
import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter } from '../../server/lib/series-codec/byte-buffer.ts';
import { readNumbers, writeNumbers } from '../../server/lib/series-codec/decimal-codec.ts';
import { readInts, writeInts } from '../../server/lib/series-codec/int-column.ts';
import { readStrings, writeStrings } from '../../server/lib/series-codec/string-codec.ts';
import { readBooleans, writeBooleans } from '../../server/lib/series-codec/boolean-codec.ts';
import { readTimestamps, writeTimestamps } from '../../server/lib/series-codec/timestamp-codec.ts';
import { readXorFloats, writeXorFloats } from '../../server/lib/series-codec/xor-float-codec.ts';
import { decodeBlock, encodeBlock } from '../../server/modules/telemetry/blocks/block-codec.ts';
import { ValueType } from '../../server/modules/telemetry/stored-value.ts';
import type { HistoryRow } from '../../server/modules/telemetry/telemetry-rows.ts';

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function roundTrip<T>(write: (w: ByteWriter, v: T[]) => void, read: (r: ByteReader, n: number) => T[], values: T[]): { back: T[]; bytes: number } {
  const w = new ByteWriter();
  write(w, values);
  // A trailing marker proves the reader consumed exactly what the writer wrote.
  w.byte(0xa5);
  const bytes = w.finish();
  const r = new ByteReader(bytes);
  const back = read(r, values.length);
  expect(r.byte()).toBe(0xa5);
  return { back, bytes: bytes.length - 1 };
}

/** Bits of a double, so NaN payloads and -0 compare exactly. */
function bitsOf(xs: readonly number[]): string[] {
  const view = new DataView(new ArrayBuffer(8));
  return xs.map((x) => {
    view.setFloat64(0, x);
    return view.getBigUint64(0).toString(16);
  });
}

function nanWithPayload(payload: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setUint32(0, 0x7ff80000 | payload);
  view.setUint32(4, 0xdeadbeef);
  return view.getFloat64(0);
}

const adversarialNumbers = [
  0, -0, Number.NaN, nanWithPayload(0x1234), Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.MAX_VALUE, -Number.MAX_VALUE,
  Number.MIN_VALUE, -Number.MIN_VALUE, Number.EPSILON, 2 ** 53, 2 ** 53 + 2, -(2 ** 60), 1e300, 1e-300, 0.1 + 0.2, 1 / 3, Math.PI,
  123456789.12345679, 23.4, 23.4, 23.4, -40, 1013.25, 5e-324, 9007199254740991, -9007199254740991, 1e21, 1.7976931348623157e308,
];

describe('series codecs', () => {
  it('gives back timestamps exactly, in order, out of order, repeated, far apart and at the edges of the integer range', () => {
    const rnd = random(1);
    const steady = Array.from({ length: 5000 }, (_, i) => 1_700_000_000_000 + i * 1000);
    const jittered = steady.map((t) => t + Math.floor(rnd() * 20) - 10);
    const shuffled = [...jittered].sort(() => rnd() - 0.5);
    const repeated = [5, 5, 5, 3, 3, 9, 9, 9, 9, 0];
    const edges = [0, Number.MAX_SAFE_INTEGER, 0, 1, Number.MAX_SAFE_INTEGER - 1, 7];
    for (const ts of [steady, jittered, shuffled, repeated, edges, [42], [1, 2], []]) {
      expect(roundTrip(writeTimestamps, readTimestamps, ts).back).toEqual(ts);
    }
    // A steady period costs almost nothing; ±10 ms of jitter under a byte.
    expect(roundTrip(writeTimestamps, readTimestamps, steady).bytes).toBeLessThan(20);
    expect(roundTrip(writeTimestamps, readTimestamps, jittered).bytes).toBeLessThan(jittered.length * 0.8);
  });

  it('gives back every double bit for bit: NaN payloads, ±0, ±Infinity, huge integers, long fractions', () => {
    const rnd = random(2);
    const randomDoubles = Array.from({ length: 3000 }, () => {
      const view = new DataView(new ArrayBuffer(8));
      view.setUint32(0, (rnd() * 2 ** 32) >>> 0);
      view.setUint32(4, (rnd() * 2 ** 32) >>> 0);
      return view.getFloat64(0);
    });
    const decimals = Array.from({ length: 3000 }, () => Math.round((rnd() * 200 - 50) * 100) / 100);
    const mixed = decimals.map((d, i) => (i % 97 === 0 ? adversarialNumbers[i % adversarialNumbers.length]! : d));
    for (const xs of [adversarialNumbers, randomDoubles, decimals, mixed, [Number.NaN], [-0], []]) {
      expect(bitsOf(roundTrip(writeNumbers, readNumbers, xs).back)).toEqual(bitsOf(xs));
      expect(bitsOf(roundTrip(writeXorFloats, readXorFloats, xs).back)).toEqual(bitsOf(xs));
    }
  });

  it('stores one-decimal sensor values in under 2 bytes each and a value that rarely changes in a few bits', () => {
    const rnd = random(3);
    let t = 21.5;
    const temperature = Array.from({ length: 8192 }, () => (t = Math.round((t + (rnd() - 0.5) * 0.6) * 10) / 10));
    const humidity = Array.from({ length: 8192 }, () => Math.round(rnd() * 1000) / 10);
    const rare = Array.from({ length: 8192 }, (_, i) => (i < 4000 ? 1 : 2.5));
    expect(roundTrip(writeNumbers, readNumbers, temperature).bytes / 8192).toBeLessThan(1);
    expect(roundTrip(writeNumbers, readNumbers, humidity).bytes / 8192).toBeLessThan(2);
    expect(roundTrip(writeNumbers, readNumbers, rare).bytes).toBeLessThan(32);
  });

  it('gives back integer columns, strings and booleans, with runs and outliers', () => {
    const rnd = random(4);
    const ints = Array.from({ length: 2000 }, (_, i) => (i % 500 === 0 ? 2 ** 51 - i : Math.floor(rnd() * 7) - 3));
    expect(roundTrip(writeInts, readInts, ints).back).toEqual(ints);
    expect(roundTrip(writeInts, readInts, [0, 0, 0, -(2 ** 52 - 1), 2 ** 52 - 1]).back).toEqual([0, 0, 0, -(2 ** 52 - 1), 2 ** 52 - 1]);
    const strings = Array.from({ length: 1000 }, (_, i) => ['eco', 'boost', '', '温度 高', 'x'.repeat(300)][i % 7 === 0 ? 4 : Math.floor(rnd() * 4)]!);
    expect(roundTrip(writeStrings, readStrings, strings).back).toEqual(strings);
    const booleans = Array.from({ length: 1000 }, (_, i) => i % 300 < 150);
    const bool = roundTrip(writeBooleans, readBooleans, booleans);
    expect(bool.back).toEqual(booleans);
    // Seven runs of a state: a few bytes each.
    expect(bool.bytes).toBeLessThan(24);
  });

  it('gives back a block of mixed types, flags and NULL numbers exactly', () => {
    const rnd = random(5);
    const rows: HistoryRow[] = Array.from({ length: 3000 }, (_, i) => {
      const ts = 1_700_000_000_000 + i * 1000 + Math.floor(rnd() * 5);
      const kind = Math.floor(rnd() * 10);
      const flag = i % 50 === 0 ? 'temperature: 150 is above the maximum 125' : i % 77 === 0 ? 'not in the model' : null;
      if (kind < 6) return { ts, valueType: ValueType.NUMBER, numValue: i % 111 === 0 ? adversarialNumbers[i % adversarialNumbers.length]! : Math.round(rnd() * 1000) / 10, textValue: null, flag };
      if (kind === 6) return { ts, valueType: ValueType.BOOLEAN, numValue: rnd() < 0.5 ? 1 : 0, textValue: null, flag };
      if (kind === 7) return { ts, valueType: ValueType.STRING, numValue: null, textValue: ['on', 'off', ''][i % 3]!, flag };
      if (kind === 8) return { ts, valueType: ValueType.JSON, numValue: null, textValue: JSON.stringify({ a: [i, 'b'], n: null }), flag };
      return { ts, valueType: ValueType.NUMBER, numValue: null, textValue: null, flag };
    });
    // SQLite keeps no NaN in a row: a NaN number comes back as the NULL it would have been stored as.
    const expected = rows.map((r) => (r.numValue !== null && Number.isNaN(r.numValue) ? { ...r, numValue: null } : r));
    const back = decodeBlock(encodeBlock(rows));
    expect(back.map((r) => ({ ...r, numValue: r.numValue === null ? null : bitsOf([r.numValue])[0] }))).toEqual(
      expected.map((r) => ({ ...r, numValue: r.numValue === null ? null : bitsOf([r.numValue])[0] })),
    );
    expect(decodeBlock(encodeBlock([rows[0]!]))).toEqual([expected[0]]);
  });
});
