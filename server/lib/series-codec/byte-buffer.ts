/**
 * Bytes of a compressed series: unsigned LEB128 varints, zig-zag for signed integers, IEEE doubles
 * and UTF-8 text. Integers are JavaScript numbers, so they are exact up to 2^53: codecs keep what
 * they write below 2^52 (see `MAX_CODED_INT`) so that a zig-zagged value still fits.
 */

/** Largest magnitude a codec hands to `writeSigned` (a delta of two values of ±2^51 fits). */
export const MAX_CODED_INT = 2 ** 52 - 1;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** 0, -1, 1, -2, … → 0, 1, 2, 3, …: small magnitudes of either sign become small varints. */
export function zigzag(n: number): number {
  return n >= 0 ? n * 2 : -n * 2 - 1;
}

export function unzigzag(z: number): number {
  return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
}

/** Bytes `writeUnsigned(n)` takes. */
export function varintLength(n: number): number {
  let bytes = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    bytes++;
  }
  return bytes;
}

export class ByteWriter {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.length++] = b;
  }

  writeUnsigned(n: number): void {
    this.room(8);
    while (n >= 128) {
      this.buf[this.length++] = (n % 128) | 128;
      n = Math.floor(n / 128);
    }
    this.buf[this.length++] = n;
  }

  writeSigned(n: number): void {
    this.writeUnsigned(zigzag(n));
  }

  float64(x: number): void {
    this.room(8);
    this.view.setFloat64(this.length, x, true);
    this.length += 8;
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** Length-prefixed UTF-8. */
  text(s: string): void {
    const b = utf8.encode(s);
    this.writeUnsigned(b.length);
    this.bytes(b);
  }

  /** The bytes written, copied out (the writer may be reused). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

export class ByteReader {
  private readonly view: DataView;
  at = 0;

  constructor(readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  byte(): number {
    if (this.at >= this.buf.length) throw new RangeError('series block ends early');
    return this.buf[this.at++]!;
  }

  readUnsigned(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      n += (b & 127) * scale;
      if (b < 128) return n;
      scale *= 128;
    }
  }

  readSigned(): number {
    return unzigzag(this.readUnsigned());
  }

  float64(): number {
    const x = this.view.getFloat64(this.at, true);
    this.at += 8;
    return x;
  }

  bytes(n: number): Uint8Array {
    if (this.at + n > this.buf.length) throw new RangeError('series block ends early');
    const b = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return b;
  }

  text(): string {
    return fromUtf8.decode(this.bytes(this.readUnsigned()));
  }
}
