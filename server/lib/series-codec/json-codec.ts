/**
 * Anything else (JSON objects and arrays) as is: each value's text, length-prefixed. Such values
 * are rare in telemetry and vary in shape, so a codec of their own would not pay for itself.
 */
import type { ByteReader, ByteWriter } from './byte-buffer.ts';

export function writeTexts(w: ByteWriter, texts: readonly string[]): void {
  for (const t of texts) w.text(t);
}

export function readTexts(r: ByteReader, n: number): string[] {
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = r.text();
  return out;
}
