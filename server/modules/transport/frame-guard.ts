/**
 * Closes an MQTT connection whose next packet announces more than `maxFrame` bytes, as soon as its
 * fixed header arrives: the packet parser would otherwise buffer it whole (MQTT allows 256 MB) and
 * one device could exhaust the gateway's memory. It only watches: the broker still reads the socket
 * itself (with a 'readable' listener present, 'data' fires only for what the broker reads).
 */
import type { Socket } from 'node:net';

/** The remaining-length field is at most 4 bytes of 7 bits. */
const MAX_LENGTH_BYTES = 4;

export function guardFrames(socket: Socket, maxFrame: number, onTooLarge: (announced: number) => void): void {
  let skip = 0;
  let inLength = false;
  let length = 0;
  let lengthBytes = 0;
  socket.on('data', (chunk: Buffer) => {
    let i = 0;
    while (i < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - i);
        skip -= n;
        i += n;
        continue;
      }
      if (!inLength) {
        // The packet type byte; the remaining length follows.
        inLength = true;
        length = 0;
        lengthBytes = 0;
        i += 1;
        continue;
      }
      const byte = chunk[i++]!;
      length += (byte & 0x7f) * 128 ** lengthBytes;
      lengthBytes += 1;
      if (byte & 0x80 && lengthBytes < MAX_LENGTH_BYTES) continue;
      inLength = false;
      if (length > maxFrame) {
        onTooLarge(length);
        socket.destroy();
        return;
      }
      skip = length;
    }
  });
}
