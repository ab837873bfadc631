/**
 * The binary form of one commit's staged history values (migration 0047, `ts_staging_pack.data`):
 * a commit appends one row holding all its values instead of one ~31 B row per value, so a paced
 * fleet's commit rewrites a smaller part of the table's last page and allocates a new page less
 * often (docs/PERFORMANCE-FINDINGS.md, "Flash wear").
 *
 * Layout: a format byte (1), then per value in arrival order: the series id and the ts as zigzag
 * varints of their difference to the previous value's, a tag byte (bits 0-1 value type, bit 2 a
 * flag follows, bits 3-4 the number: 0 none, 1 zigzag varint integer, 2 float64 little-endian,
 * bit 5 a text follows), the number, then the text and the flag as a varint byte length and UTF-8.
 * A 2-value message of numbers packs into ~10-20 B.
 *
 * `encodeStagedPack` is also the history worker's (history-worker.ts embeds its source text): it
 * must not name anything outside its own body.
 */
/** A staged value: series id, ts, value type, number value, text value, flag. */
export type StagedRecord = [seriesId: number, ts: number, valueType: number, numValue: number | null, textValue: string | null, flag: string | null];

/** Values one pack holds at most: a move takes whole packs, so this bounds how far a move's chunk overshoots. */
export const PACK_VALUES = 4096;

/** Columns of one staged value, as parallel arrays (what both the repository and the worker build). */
export interface StagedColumns {
  series: number[];
  ts: number[];
  types: number[];
  nums: (number | null)[];
  texts: (string | null)[];
  flags: (string | null)[];
}

/** One pack and the span of its values' ts, stored beside it so that readers skip packs outside their range. */
export interface EncodedPack {
  data: Uint8Array;
  minTs: number;
  maxTs: number;
}

/** Values `from` to `to` (exclusive) of `c` as one pack. Self-contained: the worker runs its source text. */
export function encodeStagedPack(c: StagedColumns, from: number, to: number): EncodedPack {
  const utf8 = new TextEncoder();
  let buf = new Uint8Array(16 + (to - from) * 16);
  let view = new DataView(buf.buffer);
  let at = 0;
  const room = (n: number): void => {
    if (at + n <= buf.length) return;
    const grown = new Uint8Array(Math.max(buf.length * 2, at + n));
    grown.set(buf);
    buf = grown;
    view = new DataView(buf.buffer);
  };
  // Arithmetic, not bitwise: ids and times go beyond 32 bits.
  const varint = (v: number): void => {
    room(8);
    while (v >= 128) {
      buf[at++] = (v % 128) + 128;
      v = Math.floor(v / 128);
    }
    buf[at++] = v;
  };
  const zigzag = (v: number): void => varint(v >= 0 ? v * 2 : -v * 2 - 1);
  const text = (s: string): void => {
    const bytes = utf8.encode(s);
    varint(bytes.length);
    room(bytes.length);
    buf.set(bytes, at);
    at += bytes.length;
  };
  buf[at++] = 1;
  let series = 0;
  let ts = 0;
  let minTs = Number.MAX_SAFE_INTEGER;
  let maxTs = Number.MIN_SAFE_INTEGER;
  for (let i = from; i < to; i++) {
    zigzag(c.series[i]! - series);
    series = c.series[i]!;
    zigzag(c.ts[i]! - ts);
    ts = c.ts[i]!;
    if (ts < minTs) minTs = ts;
    if (ts > maxTs) maxTs = ts;
    const num = c.nums[i];
    const txt = c.texts[i];
    const flag = c.flags[i];
    // -0 packs as the integer 0, as SQLite keeps it in a REAL column.
    const numKind = num === null || num === undefined ? 0 : Number.isSafeInteger(num) ? 1 : 2;
    room(9);
    buf[at++] = c.types[i]! | (flag ? 4 : 0) | (numKind << 3) | (txt === null || txt === undefined ? 0 : 32);
    if (numKind === 1) zigzag(num!);
    else if (numKind === 2) {
      view.setFloat64(at, num!, true);
      at += 8;
    }
    if (txt !== null && txt !== undefined) text(txt);
    if (flag) text(flag);
  }
  return { data: buf.slice(0, at), minTs, maxTs };
}

/** The values of one pack, appended to `out` in arrival order. */
export function decodeStagedPack(data: Uint8Array, out: StagedRecord[]): void {
  if (data[0] !== 1) throw new Error(`staged pack of an unknown format ${data[0]}`);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const utf8 = new TextDecoder();
  let at = 1;
  const varint = (): number => {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = data[at++]!;
      v += (b & 127) * scale;
      if (b < 128) return v;
      scale *= 128;
    }
  };
  const zigzag = (): number => {
    const v = varint();
    return v % 2 === 0 ? v / 2 : -(v + 1) / 2;
  };
  const text = (): string => {
    const n = varint();
    const s = utf8.decode(data.subarray(at, at + n));
    at += n;
    return s;
  };
  let series = 0;
  let ts = 0;
  while (at < data.length) {
    series += zigzag();
    ts += zigzag();
    const tag = data[at++]!;
    const numKind = (tag >> 3) & 3;
    let num: number | null = null;
    if (numKind === 1) num = zigzag();
    else if (numKind === 2) {
      num = view.getFloat64(at, true);
      at += 8;
    }
    const txt = tag & 32 ? text() : null;
    const flag = tag & 4 ? text() : null;
    out.push([series, ts, tag & 3, num, txt, flag]);
  }
}

/** Empty columns to fill. */
export function stagedColumns(): StagedColumns {
  return { series: [], ts: [], types: [], nums: [], texts: [], flags: [] };
}

/** Appends one staged value to `c`. */
export function pushStagedRecord(c: StagedColumns, r: StagedRecord): void {
  c.series.push(r[0]);
  c.ts.push(r[1]);
  c.types.push(r[2]);
  c.nums.push(r[3]);
  c.texts.push(r[4]);
  c.flags.push(r[5]);
}
