/**
 * Timestamps (integer epoch milliseconds, in any order, repeats allowed) as delta-of-delta: the
 * first as a varint, the first delta as a varint, then each change of delta in an int column. A
 * device reporting at a steady period costs width-0 bits per value. Jitter (arrival times) doubles
 * in a delta-of-delta, so the plain deltas are kept instead when their column is smaller (packed
 * as offsets from the shortest gap, a few bits). Timestamps that are not safe non-negative
 * integers, or so far apart that a delta-of-delta leaves the exact integer range, are stored as
 * doubles.
 */
import { ByteReader, ByteWriter, MAX_CODED_INT } from './byte-buffer.ts';
import { fitsIntColumn, readInts, writeInts } from './int-column.ts';

const DELTA_OF_DELTA = 0;
const PLAIN = 1;
const DELTAS = 2;

export function writeTimestamps(w: ByteWriter, ts: ArrayLike<number>): void {
  const n = ts.length;
  if (n === 0) return;
  const dods = new Array<number>(Math.max(0, n - 2));
  let integers = true;
  for (let i = 0; i < n; i++) if (!Number.isSafeInteger(ts[i]) || ts[i]! < 0) integers = false;
  let delta = n > 1 ? ts[1]! - ts[0]! : 0;
  for (let i = 2; i < n; i++) {
    const next = ts[i]! - ts[i - 1]!;
    dods[i - 2] = next - delta;
    delta = next;
  }
  const first = n > 1 ? ts[1]! - ts[0]! : 0;
  if (integers && Math.abs(first) <= MAX_CODED_INT && fitsIntColumn(dods)) {
    const dodColumn = new ByteWriter();
    writeInts(dodColumn, dods);
    const deltas = new Array<number>(n - 1);
    for (let i = 1; i < n; i++) deltas[i - 1] = ts[i]! - ts[i - 1]!;
    const deltaColumn = new ByteWriter();
    if (n > 2 && fitsIntColumn(deltas)) writeInts(deltaColumn, deltas);
    if (deltaColumn.length > 0 && deltaColumn.length < dodColumn.length) {
      w.byte(DELTAS);
      w.writeUnsigned(ts[0]!);
      w.bytes(deltaColumn.finish());
      return;
    }
    w.byte(DELTA_OF_DELTA);
    w.writeUnsigned(ts[0]!);
    if (n === 1) return;
    w.writeSigned(first);
    w.bytes(dodColumn.finish());
    return;
  }
  w.byte(PLAIN);
  for (let i = 0; i < n; i++) w.float64(ts[i]!);
}

export function readTimestamps(r: ByteReader, n: number): number[] {
  const out = new Array<number>(n);
  if (n === 0) return out;
  const mode = r.byte();
  if (mode === PLAIN) {
    for (let i = 0; i < n; i++) out[i] = r.float64();
    return out;
  }
  if (mode === DELTAS) {
    out[0] = r.readUnsigned();
    const deltas = readInts(r, n - 1);
    for (let i = 1; i < n; i++) out[i] = out[i - 1]! + deltas[i - 1]!;
    return out;
  }
  if (mode !== DELTA_OF_DELTA) throw new RangeError(`unknown timestamp mode ${mode}`);
  out[0] = r.readUnsigned();
  if (n === 1) return out;
  let delta = r.readSigned();
  out[1] = out[0] + delta;
  const dods = readInts(r, n - 2);
  for (let i = 2; i < n; i++) {
    delta += dods[i - 2]!;
    out[i] = out[i - 1]! + delta;
  }
  return out;
}
