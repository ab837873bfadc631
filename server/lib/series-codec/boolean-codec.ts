/** Booleans as 0/1 in an int column: one bit each, or runs when a state rarely changes. */
import type { ByteReader, ByteWriter } from './byte-buffer.ts';
import { readInts, writeInts } from './int-column.ts';

export function writeBooleans(w: ByteWriter, values: readonly boolean[]): void {
  writeInts(
    w,
    values.map((b) => (b ? 1 : 0)),
  );
}

export function readBooleans(r: ByteReader, n: number): boolean[] {
  return readInts(r, n).map((b) => b === 1);
}
