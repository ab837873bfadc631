/**
 * Doubles as Gorilla stores them (Pelkonen et al., "Gorilla", VLDB 2015): the first value's 64
 * bits, then each value XORed with the one before: a 0 bit for a repeat, else the XOR's meaningful
 * bits, inside the previous value's window of leading and trailing zeros when they fit ('10') or
 * with a new window ('11', 5 bits of leading zeros, 6 bits of length). Bit-exact for every double
 * (NaN payloads, -0, ±Infinity included): the fallback for values that are not short decimals.
 */
import { BitReader, BitWriter } from './bit-packing.ts';
import type { ByteReader, ByteWriter } from './byte-buffer.ts';

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const LO = littleEndian ? 0 : 1;
const HI = littleEndian ? 1 : 0;

function ctz32(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** Writes the low `len` bits of (hi:lo) >> shift. */
function writeMeaningful(bits: BitWriter, hi: number, lo: number, shift: number, len: number): void {
  if (shift >= 32) {
    lo = hi >>> (shift - 32);
    hi = 0;
  } else if (shift > 0) {
    lo = ((lo >>> shift) | (hi << (32 - shift))) >>> 0;
    hi = hi >>> shift;
  }
  if (len > 32) {
    bits.write(hi, len - 32);
    bits.write(lo, 32);
  } else {
    bits.write(lo, len);
  }
}

export function writeXorFloats(w: ByteWriter, xs: ArrayLike<number>): void {
  const bits = new BitWriter();
  let prevHi = 0;
  let prevLo = 0;
  let prevLead = -1;
  let prevTrail = 0;
  for (let i = 0; i < xs.length; i++) {
    f64[0] = xs[i]!;
    const hi = u32[HI]!;
    const lo = u32[LO]!;
    if (i === 0) {
      bits.write(hi, 32);
      bits.write(lo, 32);
    } else {
      const xh = (hi ^ prevHi) >>> 0;
      const xl = (lo ^ prevLo) >>> 0;
      if (xh === 0 && xl === 0) {
        bits.write(0, 1);
      } else {
        const lead = xh !== 0 ? Math.clz32(xh) : 32 + Math.clz32(xl);
        const trail = xl !== 0 ? ctz32(xl) : 32 + ctz32(xh);
        if (prevLead >= 0 && lead >= prevLead && trail >= prevTrail) {
          bits.write(2, 2);
          writeMeaningful(bits, xh, xl, prevTrail, 64 - prevLead - prevTrail);
        } else {
          const capped = Math.min(lead, 31);
          const len = 64 - capped - trail;
          bits.write(3, 2);
          bits.write(capped, 5);
          bits.write(len - 1, 6);
          writeMeaningful(bits, xh, xl, trail, len);
          prevLead = capped;
          prevTrail = trail;
        }
      }
    }
    prevHi = hi;
    prevLo = lo;
  }
  const bytes = bits.finish();
  w.writeUnsigned(bytes.length);
  w.bytes(bytes);
}

export function readXorFloats(r: ByteReader, n: number): number[] {
  const out = new Array<number>(n);
  if (n === 0) {
    r.readUnsigned();
    return out;
  }
  const bits = new BitReader(r.bytes(r.readUnsigned()));
  let hi = bits.read(32);
  let lo = bits.read(32);
  let lead = 0;
  let trail = 0;
  u32[HI] = hi;
  u32[LO] = lo;
  out[0] = f64[0]!;
  for (let i = 1; i < n; i++) {
    if (bits.read(1) === 1) {
      if (bits.read(1) === 1) {
        lead = bits.read(5);
        trail = 64 - lead - (bits.read(6) + 1);
      }
      const len = 64 - lead - trail;
      let xh = len > 32 ? bits.read(len - 32) : 0;
      let xl = bits.read(Math.min(len, 32));
      if (trail >= 32) {
        xh = xl << (trail - 32);
        xl = 0;
      } else if (trail > 0) {
        xh = (xh << trail) | (xl >>> (32 - trail));
        xl = xl << trail;
      }
      hi = (hi ^ xh) >>> 0;
      lo = (lo ^ xl) >>> 0;
    }
    u32[HI] = hi;
    u32[LO] = lo;
    out[i] = f64[0]!;
  }
  return out;
}
