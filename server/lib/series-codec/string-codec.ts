/**
 * Short strings (modes, states, labels) through a dictionary: each distinct string once, in order
 * of first appearance, then an int column of indices, which costs a few bits or a run per value
 * when a key takes a handful of values.
 */
import type { ByteReader, ByteWriter } from './byte-buffer.ts';
import { readInts, writeInts } from './int-column.ts';

export function writeStrings(w: ByteWriter, values: readonly string[]): void {
  const index = new Map<string, number>();
  const indices = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) {
    const s = values[i]!;
    let k = index.get(s);
    if (k === undefined) {
      k = index.size;
      index.set(s, k);
    }
    indices[i] = k;
  }
  w.writeUnsigned(index.size);
  for (const s of index.keys()) w.text(s);
  writeInts(w, indices);
}

export function readStrings(r: ByteReader, n: number): string[] {
  const dictionary = new Array<string>(r.readUnsigned());
  for (let k = 0; k < dictionary.length; k++) dictionary[k] = r.text();
  return readInts(r, n).map((k) => {
    const s = dictionary[k];
    if (s === undefined) throw new RangeError('string index outside the dictionary');
    return s;
  });
}
