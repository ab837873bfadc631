/**
 * The bytes of a history block (ts_block.data, migration 0012): the values of one series in ts
 * order, column by column, each column with the codec of server/lib/series-codec/ that suits it.
 *
 *   format byte (1) · count (varint) · timestamps (delta-of-delta) · value types (int column)
 *   · flags: dictionary size, its texts, and when not empty an int column of 1-based indices (0: none)
 *   · then, for the types present, in type order: booleans (bits or runs), numbers (decimal
 *     mantissas or XOR), strings (dictionary), JSON texts (as is).
 *
 * A block gives back exactly the rows it was made of: type tags, numbers bit for bit (a NUMBER row
 * whose number is NULL travels as NaN, which SQLite cannot store in a row), texts and flags.
 */
import { readBooleans, writeBooleans } from '../../../lib/series-codec/boolean-codec.ts';
import { ByteReader, ByteWriter } from '../../../lib/series-codec/byte-buffer.ts';
import { readNumbers, writeNumbers } from '../../../lib/series-codec/decimal-codec.ts';
import { readInts, writeInts } from '../../../lib/series-codec/int-column.ts';
import { readTexts, writeTexts } from '../../../lib/series-codec/json-codec.ts';
import { readStrings, writeStrings } from '../../../lib/series-codec/string-codec.ts';
import { readTimestamps, writeTimestamps } from '../../../lib/series-codec/timestamp-codec.ts';
import { ValueType } from '../stored-value.ts';
import type { HistoryRow } from '../telemetry-rows.ts';

const FORMAT = 1;

export function encodeBlock(rows: readonly HistoryRow[]): Uint8Array {
  const w = new ByteWriter();
  const n = rows.length;
  w.byte(FORMAT);
  w.writeUnsigned(n);
  writeTimestamps(
    w,
    rows.map((r) => r.ts),
  );
  writeInts(
    w,
    rows.map((r) => r.valueType),
  );
  const flagIndex = new Map<string, number>();
  const flags = rows.map((r) => {
    if (r.flag === null) return 0;
    let k = flagIndex.get(r.flag);
    if (k === undefined) flagIndex.set(r.flag, (k = flagIndex.size + 1));
    return k;
  });
  w.writeUnsigned(flagIndex.size);
  for (const f of flagIndex.keys()) w.text(f);
  if (flagIndex.size > 0) writeInts(w, flags);
  const booleans: boolean[] = [];
  const numbers: number[] = [];
  const strings: string[] = [];
  const json: string[] = [];
  for (const r of rows) {
    if (r.valueType === ValueType.BOOLEAN) booleans.push(r.numValue === 1);
    else if (r.valueType === ValueType.NUMBER) numbers.push(r.numValue ?? Number.NaN);
    else if (r.valueType === ValueType.STRING) strings.push(r.textValue ?? '');
    else json.push(r.textValue ?? 'null');
  }
  if (booleans.length) writeBooleans(w, booleans);
  if (numbers.length) writeNumbers(w, numbers);
  if (strings.length) writeStrings(w, strings);
  if (json.length) writeTexts(w, json);
  return w.finish();
}

export function decodeBlock(bytes: Uint8Array): HistoryRow[] {
  const r = new ByteReader(bytes);
  const format = r.byte();
  if (format !== FORMAT) throw new RangeError(`unknown history block format ${format}`);
  const n = r.readUnsigned();
  const ts = readTimestamps(r, n);
  const types = readInts(r, n);
  const dictionary = new Array<string>(r.readUnsigned());
  for (let k = 0; k < dictionary.length; k++) dictionary[k] = r.text();
  const flags = dictionary.length > 0 ? readInts(r, n) : null;
  let booleanCount = 0;
  let numberCount = 0;
  let stringCount = 0;
  let jsonCount = 0;
  for (const t of types) {
    if (t === ValueType.BOOLEAN) booleanCount++;
    else if (t === ValueType.NUMBER) numberCount++;
    else if (t === ValueType.STRING) stringCount++;
    else jsonCount++;
  }
  const booleans = booleanCount ? readBooleans(r, booleanCount) : [];
  const numbers = numberCount ? readNumbers(r, numberCount) : [];
  const strings = stringCount ? readStrings(r, stringCount) : [];
  const json = jsonCount ? readTexts(r, jsonCount) : [];
  const next = [0, 0, 0, 0];
  const out = new Array<HistoryRow>(n);
  for (let i = 0; i < n; i++) {
    const valueType = types[i]!;
    const flagAt = flags?.[i] ?? 0;
    const flag = flagAt === 0 ? null : (dictionary[flagAt - 1] ?? null);
    let numValue: number | null = null;
    let textValue: string | null = null;
    if (valueType === ValueType.BOOLEAN) numValue = booleans[next[0]!++] ? 1 : 0;
    else if (valueType === ValueType.NUMBER) {
      const x = numbers[next[1]!++]!;
      numValue = Number.isNaN(x) ? null : x;
    } else if (valueType === ValueType.STRING) textValue = strings[next[2]!++]!;
    else textValue = json[next[3]!++]!;
    out[i] = { ts: ts[i]!, valueType, numValue, textValue, flag };
  }
  return out;
}
