/**
 * Bit-level writing and reading, most significant bit first, for fixed-width packed integers and
 * the XOR float codec. Values up to 53 bits wide go in 24-bit chunks so the accumulator stays a
 * 32-bit integer.
 */
const CHUNK = 24;
const CHUNK_SCALE = 2 ** CHUNK;

export class BitWriter {
  private buf = new Uint8Array(64);
  private length = 0;
  private acc = 0;
  private bits = 0;

  /** Appends the low `width` bits of `value` (a non-negative integer below 2^width, width ≤ 53). */
  write(value: number, width: number): void {
    if (width > CHUNK) {
      const high = Math.floor(value / CHUNK_SCALE);
      this.write(high, width - CHUNK);
      value -= high * CHUNK_SCALE;
      width = CHUNK;
    }
    this.acc = (this.acc << width) | value;
    this.bits += width;
    while (this.bits >= 8) {
      this.bits -= 8;
      if (this.length === this.buf.length) {
        const next = new Uint8Array(this.buf.length * 2);
        next.set(this.buf);
        this.buf = next;
      }
      this.buf[this.length++] = (this.acc >>> this.bits) & 255;
    }
    this.acc &= (1 << this.bits) - 1;
  }

  /** The bytes, the last one padded with zero bits. */
  finish(): Uint8Array {
    if (this.bits > 0) this.write(0, 8 - this.bits);
    return this.buf.slice(0, this.length);
  }
}

export class BitReader {
  private pos = 0;
  private acc = 0;
  private bits = 0;

  constructor(private readonly buf: Uint8Array) {}

  read(width: number): number {
    if (width > CHUNK) {
      const high = this.read(width - CHUNK);
      return high * CHUNK_SCALE + this.read(CHUNK);
    }
    while (this.bits < width) {
      if (this.pos >= this.buf.length) throw new RangeError('series block ends early');
      this.acc = (this.acc << 8) | this.buf[this.pos++]!;
      this.bits += 8;
    }
    this.bits -= width;
    const value = (this.acc >>> this.bits) & ((1 << width) - 1);
    this.acc &= (1 << this.bits) - 1;
    return value;
  }
}

/** Bits an unsigned integer needs (0 for 0). */
export function bitWidth(n: number): number {
  return n < 2 ** 31 ? 32 - Math.clz32(n) : 31 + bitWidth(Math.floor(n / 2 ** 31));
}
