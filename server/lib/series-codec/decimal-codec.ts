/**
 * Numbers as sensors send them (23.4, 1013.25, 7): decimal mantissas with one exponent shared by
 * the column, delta-coded in an int column, as VictoriaMetrics does. XOR coding does poorly on
 * such values (23.4 has no short binary form); as integers their deltas take a few bits. A value
 * that is not a short decimal (NaN, -0, ±Infinity, a magnitude past 2^50 units, more digits than
 * the shared exponent keeps) is an exception stored as its 8 bytes; a column with many of them is
 * stored by the XOR codec instead. Exact: a mantissa is used only when dividing it back by the
 * power of ten gives the very same double, which is what decoding computes.
 */
import { ByteReader, ByteWriter } from './byte-buffer.ts';
import { readInts, writeInts } from './int-column.ts';
import { readXorFloats, writeXorFloats } from './xor-float-codec.ts';

const DECIMAL = 0;
const XOR = 1;
const MAX_EXPONENT = 15;
/** Mantissas stay below this, so their deltas stay exact integers. */
const MAX_MANTISSA = 2 ** 50;
const POW10 = Array.from({ length: MAX_EXPONENT + 1 }, (_, e) => 10 ** e);

/** The fewest decimals that give `v` back exactly, or -1 when it is not a short decimal. */
function decimalsOf(v: number): number {
  if (!Number.isFinite(v) || Object.is(v, -0)) return -1;
  for (let e = 0; e <= MAX_EXPONENT; e++) {
    const m = Math.round(v * POW10[e]!);
    if (Math.abs(m) > MAX_MANTISSA) return -1;
    if (m / POW10[e]! === v) return e;
  }
  return -1;
}

/** The mantissa of `v` at `exponent`, or null when it does not give `v` back exactly. */
function mantissaOf(v: number, exponent: number): number | null {
  if (!Number.isFinite(v) || Object.is(v, -0)) return null;
  const m = Math.round(v * POW10[exponent]!);
  return Math.abs(m) <= MAX_MANTISSA && m / POW10[exponent]! === v ? m : null;
}

/** The smallest exponent that leaves at most 1/16 of the short decimals as exceptions. */
function sharedExponent(xs: ArrayLike<number>): number {
  const counts = new Array<number>(MAX_EXPONENT + 1).fill(0);
  for (let i = 0; i < xs.length; i++) {
    const e = decimalsOf(xs[i]!);
    if (e >= 0) counts[e]!++;
  }
  let above = counts.reduce((a, b) => a + b, 0);
  for (let e = 0; e <= MAX_EXPONENT; e++) {
    above -= counts[e]!;
    if (above * 16 <= xs.length) return e;
  }
  return MAX_EXPONENT;
}

function writeDecimal(w: ByteWriter, xs: ArrayLike<number>): number {
  const n = xs.length;
  const exponent = sharedExponent(xs);
  const deltas = new Array<number>(Math.max(0, n - 1));
  const exceptions: number[] = [];
  let previous = 0;
  let first = 0;
  for (let i = 0; i < n; i++) {
    let m = mantissaOf(xs[i]!, exponent);
    if (m === null) {
      exceptions.push(i);
      m = previous;
    }
    if (i === 0) first = m;
    else deltas[i - 1] = m - previous;
    previous = m;
  }
  w.byte(DECIMAL);
  w.byte(exponent);
  w.writeUnsigned(exceptions.length);
  let at = 0;
  for (const i of exceptions) {
    w.writeUnsigned(i - at);
    w.float64(xs[i]!);
    at = i;
  }
  w.writeSigned(first);
  writeInts(w, deltas);
  return exceptions.length;
}

export function writeNumbers(w: ByteWriter, xs: ArrayLike<number>): void {
  const n = xs.length;
  const decimal = new ByteWriter();
  const exceptions = writeDecimal(decimal, xs);
  // Many exceptions, or mantissas that vary too much to be small: XOR may do better; keep the smaller.
  if (exceptions * 16 > n || decimal.length > 2 * n + 16) {
    const xor = new ByteWriter();
    xor.byte(XOR);
    writeXorFloats(xor, xs);
    if (xor.length < decimal.length) {
      w.bytes(xor.finish());
      return;
    }
  }
  w.bytes(decimal.finish());
}

export function readNumbers(r: ByteReader, n: number): number[] {
  const mode = r.byte();
  if (mode === XOR) return readXorFloats(r, n);
  if (mode !== DECIMAL) throw new RangeError(`unknown number mode ${mode}`);
  const scale = POW10[r.byte()];
  if (scale === undefined) throw new RangeError('number exponent out of range');
  const exceptionCount = r.readUnsigned();
  const exceptions: { at: number; value: number }[] = [];
  let at = 0;
  for (let k = 0; k < exceptionCount; k++) {
    at += r.readUnsigned();
    exceptions.push({ at, value: r.float64() });
  }
  const out = new Array<number>(n);
  let m = r.readSigned();
  const deltas = readInts(r, Math.max(0, n - 1));
  if (n === 0) return out;
  out[0] = m / scale;
  for (let i = 1; i < n; i++) {
    m += deltas[i - 1]!;
    out[i] = m / scale;
  }
  for (const e of exceptions) out[e.at] = e.value;
  return out;
}
