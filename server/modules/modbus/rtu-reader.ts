/**
 * Reads the answer to one outstanding RTU request out of a byte stream that may also carry garbage,
 * a DTU's registration prefix, answers from the wrong slave or cut frames. Bytes that cannot start
 * the expected answer are dropped one at a time (resynchronising on the next plausible start), so a
 * burst of noise costs one bad frame, not the connection.
 */
import { crc16 } from './modbus-crc.ts';
import { responsePduLength } from './modbus-pdu.ts';

/** `frame`: the whole RTU frame (address, PDU, CRC), as the device page shows the last one. */
export type RtuMatch = { kind: 'pdu'; pdu: Buffer; frame: Buffer } | { kind: 'crc' } | { kind: 'bad' };

/** Bytes buffered without an answer in them: past this the stream is noise and is dropped. */
const MAX_BUFFERED = 4096;

export class RtuReader {
  private buf: Buffer = Buffer.alloc(0);
  /** Garbage bytes dropped since the last report. */
  private dropped = 0;

  constructor(private readonly prefix: Buffer | null = null) {}

  feed(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    if (this.buf.length > MAX_BUFFERED) {
      this.dropped += this.buf.length;
      this.buf = Buffer.alloc(0);
    }
  }

  /** Drops what is buffered (between requests nothing is expected). Returns how many bytes went. */
  clear(): number {
    const n = this.buf.length + this.dropped;
    this.buf = Buffer.alloc(0);
    this.dropped = 0;
    return n;
  }

  /** Bytes skipped while looking for an answer since the last call (counted as one bad frame by the caller). */
  takeDropped(): number {
    const n = this.dropped;
    this.dropped = 0;
    return n;
  }

  /**
   * The answer of `slave` to `request` (a PDU) if it is complete in the buffer; null while more
   * bytes are needed. A frame with a bad CRC ends the wait (`crc`).
   */
  match(slave: number, request: Uint8Array): RtuMatch | null {
    const fn = request[0]!;
    const normal = responsePduLength(request) + 3;
    for (;;) {
      this.stripPrefix();
      const buf = this.buf;
      if (buf.length < 2) return null;
      let total: number;
      if (buf[0] !== slave) total = 0;
      else if (buf[1] === fn) total = normal;
      else if (buf[1] === (fn | 0x80)) total = 5;
      else total = 0;
      if (total === 0) {
        this.buf = buf.subarray(1);
        this.dropped++;
        continue;
      }
      if (buf.length < total) return null;
      const crc = buf.readUInt16LE(total - 2);
      if (crc !== crc16(buf, 0, total - 2)) {
        this.buf = buf.subarray(total);
        return { kind: 'crc' };
      }
      const frame = Buffer.from(buf.subarray(0, total));
      this.buf = buf.subarray(total);
      return { kind: 'pdu', pdu: frame.subarray(1, total - 2), frame };
    }
  }

  /** DATA_CARRY and REGISTRATION_PACKAGE DTUs put their registration before every frame. */
  private stripPrefix(): void {
    const p = this.prefix;
    if (p && this.buf.length >= p.length && this.buf.subarray(0, p.length).equals(p)) this.buf = this.buf.subarray(p.length);
  }
}
