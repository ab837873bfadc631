/**
 * A way to reach Modbus slaves: one request at a time (an RS-485 bus behind a DTU is half duplex,
 * and most Modbus TCP devices serve one request per connection at a time), answered, refused or
 * timed out. The DTU link speaks RTU over a registered TCP connection; the Modbus TCP link dials.
 */
import type { PduAnswer } from './modbus-pdu.ts';

export type TransactResult = (PduAnswer | { kind: 'timeout' } | { kind: 'crc' } | { kind: 'notConnected' }) & {
  /** Garbage or foreign bytes skipped while waiting (counted as a bad frame). */
  dropped?: number;
  /** The answer frame as received (for the device page's last frame). */
  frame?: Buffer;
};

export interface ModbusLink {
  readonly connected: boolean;
  readonly remoteAddress: string | null;
  readonly connectedSince: number | null;
  transact(unit: number, pdu: Buffer, timeoutMs: number): Promise<TransactResult>;
  close(): void;
}

/** Runs `fn` after every earlier call of the returned function settled: one request on the wire at a time. */
export function serial(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}
