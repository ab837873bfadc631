/** Modbus RTU over a DTU's registered TCP connection (server/modules/tcp-device/tcp-connections.ts). */
import type { TcpConnections } from '../tcp-device/tcp-connections.ts';
import { rtuFrame } from './modbus-crc.ts';
import { answerOf } from './modbus-pdu.ts';
import { serial, type ModbusLink, type TransactResult } from './modbus-link.ts';
import { RtuReader } from './rtu-reader.ts';

interface Waiting {
  unit: number;
  pdu: Buffer;
  finish: (result: TransactResult) => void;
}

export class DtuLink implements ModbusLink {
  private readonly reader: RtuReader;
  private waiting: Waiting | null = null;
  private readonly off: () => void;
  private readonly queue = serial();
  /** Bytes that came while no request was outstanding (heartbeats, late answers). */
  unsolicited = 0;

  constructor(
    private readonly connections: TcpConnections,
    /** The registered device whose connection this is. */
    readonly carrierId: string,
  ) {
    const connection = connections.get(carrierId);
    const carried = connection && connection.authType !== 'REGISTER_SEND';
    this.reader = new RtuReader(carried ? connection.registration : null);
    this.off = connections.onFrames(carrierId, (chunk) => this.received(chunk));
  }

  get connected(): boolean {
    return this.connections.get(this.carrierId) !== undefined;
  }

  get remoteAddress(): string | null {
    return this.connections.get(this.carrierId)?.remoteAddress ?? null;
  }

  get connectedSince(): number | null {
    return this.connections.get(this.carrierId)?.connectedSince ?? null;
  }

  transact(unit: number, pdu: Buffer, timeoutMs: number): Promise<TransactResult> {
    return this.queue(
      () =>
        new Promise<TransactResult>((resolve) => {
          this.unsolicited += this.reader.clear();
          if (!this.connections.write(this.carrierId, rtuFrame(unit, pdu))) {
            resolve({ kind: 'notConnected' });
            return;
          }
          const timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
          const finish = (result: TransactResult) => {
            clearTimeout(timer);
            this.waiting = null;
            const dropped = this.reader.takeDropped();
            resolve(dropped ? { ...result, dropped } : result);
          };
          this.waiting = { unit, pdu, finish };
        }),
    );
  }

  close(): void {
    this.off();
    this.waiting?.finish({ kind: 'notConnected' });
  }

  private received(chunk: Buffer): void {
    this.reader.feed(chunk);
    const w = this.waiting;
    if (!w) return;
    const match = this.reader.match(w.unit, w.pdu);
    if (!match) return;
    if (match.kind !== 'pdu') w.finish(match);
    else w.finish({ ...answerOf(w.pdu, match.pdu), frame: match.frame });
  }
}
