/** CRC-16/MODBUS (polynomial 0xA001 reflected, initial 0xFFFF), table-driven: it runs per frame. */
const table = new Uint16Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
  table[n] = c;
}

/** The CRC of `bytes[start, end)`; on the wire it follows the frame low byte first. */
export function crc16(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffff;
  for (let i = start; i < end; i++) crc = (crc >>> 8) ^ table[(crc ^ bytes[i]!) & 0xff]!;
  return crc;
}

/** `pdu` addressed to `slave` with its CRC appended: one RTU frame. */
export function rtuFrame(slave: number, pdu: Uint8Array): Buffer {
  const frame = Buffer.alloc(pdu.length + 3);
  frame[0] = slave;
  frame.set(pdu, 1);
  const crc = crc16(frame, 0, pdu.length + 1);
  frame.writeUInt16LE(crc, pdu.length + 1);
  return frame;
}
