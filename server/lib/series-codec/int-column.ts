/**
 * A column of signed integers (deltas, dictionary indices, type tags), stored whichever way is
 * smallest: run-length varints (few distinct runs, rare outliers), every value zig-zagged and
 * packed at the width of the largest (small deltas around zero; width 0 when all are zero), or
 * packed as offsets from the smallest (values in a narrow band away from zero, such as the gaps
 * between jittered 1 s timestamps). The count is the block's, so the column does not repeat it.
 */
import { bitWidth, BitReader, BitWriter } from './bit-packing.ts';
import { ByteReader, ByteWriter, MAX_CODED_INT, unzigzag, varintLength, zigzag } from './byte-buffer.ts';

const RUNS = 0;
const PACKED = 1;
const OFFSETS = 2;

/** Whether every value can go in an int column. */
export function fitsIntColumn(ints: ArrayLike<number>): boolean {
  for (let i = 0; i < ints.length; i++) {
    const v = ints[i]!;
    if (!Number.isSafeInteger(v) || Math.abs(v) > MAX_CODED_INT) return false;
  }
  return true;
}

/** Writes `ints` (safe integers of magnitude ≤ MAX_CODED_INT: check with fitsIntColumn). */
export function writeInts(w: ByteWriter, ints: ArrayLike<number>): void {
  const n = ints.length;
  let runBytes = 0;
  let widest = 0;
  let min = n ? ints[0]! : 0;
  let max = min;
  for (let i = 0; i < n; ) {
    const z = zigzag(ints[i]!);
    if (z > widest) widest = z;
    if (ints[i]! < min) min = ints[i]!;
    if (ints[i]! > max) max = ints[i]!;
    let end = i + 1;
    while (end < n && ints[end] === ints[i]) end++;
    runBytes += varintLength(z * 2) + (end - i > 1 ? varintLength(end - i - 2) : 0);
    i = end;
  }
  const width = bitWidth(widest);
  const offsetWidth = bitWidth(max - min);
  const offsetBytes = varintLength(zigzag(min)) + 1 + Math.ceil((n * offsetWidth) / 8);
  if (offsetBytes < runBytes && offsetBytes < Math.ceil((n * width) / 8) + 1) {
    w.byte(OFFSETS);
    w.writeSigned(min);
    w.byte(offsetWidth);
    if (offsetWidth === 0) return;
    const bits = new BitWriter();
    for (let i = 0; i < n; i++) bits.write(ints[i]! - min, offsetWidth);
    w.bytes(bits.finish());
    return;
  }
  if (Math.ceil((n * width) / 8) + 1 < runBytes) {
    w.byte(PACKED);
    w.byte(width);
    if (width === 0) return;
    const bits = new BitWriter();
    for (let i = 0; i < n; i++) bits.write(zigzag(ints[i]!), width);
    w.bytes(bits.finish());
    return;
  }
  w.byte(RUNS);
  for (let i = 0; i < n; ) {
    let end = i + 1;
    while (end < n && ints[end] === ints[i]) end++;
    // The low bit says whether a run length follows: a lone value costs no length byte.
    w.writeUnsigned(zigzag(ints[i]!) * 2 + (end - i > 1 ? 1 : 0));
    if (end - i > 1) w.writeUnsigned(end - i - 2);
    i = end;
  }
}

/** Reads `n` integers written by writeInts. */
export function readInts(r: ByteReader, n: number): number[] {
  const out = new Array<number>(n);
  const mode = r.byte();
  if (mode === OFFSETS) {
    const min = r.readSigned();
    const width = r.byte();
    if (width === 0) return out.fill(min);
    const bits = new BitReader(r.bytes(Math.ceil((n * width) / 8)));
    for (let i = 0; i < n; i++) out[i] = min + bits.read(width);
    return out;
  }
  if (mode === PACKED) {
    const width = r.byte();
    if (width === 0) return out.fill(0);
    const bits = new BitReader(r.bytes(Math.ceil((n * width) / 8)));
    for (let i = 0; i < n; i++) out[i] = unzigzag(bits.read(width));
    return out;
  }
  if (mode !== RUNS) throw new RangeError(`unknown int column mode ${mode}`);
  for (let i = 0; i < n; ) {
    const token = r.readUnsigned();
    const value = unzigzag(Math.floor(token / 2));
    const run = token % 2 === 1 ? r.readUnsigned() + 2 : 1;
    if (i + run > n) throw new RangeError('series block run overflows its count');
    for (let end = i + run; i < end; i++) out[i] = value;
  }
  return out;
}
