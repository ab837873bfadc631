/**
 * Modbus TCP (MBAP header: transaction, protocol 0, length, unit) to a device the gateway dials.
 * The connection is opened on first use and again after it drops, no sooner than RECONNECT_MS
 * after the last failed attempt, so a dead device costs one refused connect per interval.
 */
import { connect, type Socket } from 'node:net';
import type { ModbusTcpTarget } from '../../contract/tcp-device.ts';
import { answerOf } from './modbus-pdu.ts';
import { serial, type ModbusLink, type TransactResult } from './modbus-link.ts';

const RECONNECT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 3_000;

interface Waiting {
  tid: number;
  unit: number;
  pdu: Buffer;
  finish: (result: TransactResult) => void;
}

export class ModbusTcpLink implements ModbusLink {
  private socket: Socket | null = null;
  private connecting: Promise<Socket | null> | null = null;
  private lastFailure = 0;
  private buf: Buffer = Buffer.alloc(0);
  private tid = 0;
  private waiting: Waiting | null = null;
  private readonly queue = serial();
  private closed = false;
  connectedSince: number | null = null;

  constructor(readonly target: ModbusTcpTarget) {}

  get connected(): boolean {
    return this.socket !== null;
  }

  get remoteAddress(): string {
    return `${this.target.host}:${this.target.port}`;
  }

  transact(unit: number, pdu: Buffer, timeoutMs: number): Promise<TransactResult> {
    return this.queue(async () => {
      const socket = await this.open();
      if (!socket) return { kind: 'notConnected' } as const;
      return new Promise<TransactResult>((resolve) => {
        this.tid = (this.tid + 1) & 0xffff;
        const header = Buffer.alloc(7);
        header.writeUInt16BE(this.tid, 0);
        header.writeUInt16BE(0, 2);
        header.writeUInt16BE(pdu.length + 1, 4);
        header[6] = unit;
        const timer = setTimeout(() => {
          finish({ kind: 'timeout' });
          // A late answer would arrive during the next request; a fresh connection starts clean,
          // and a slave that died behind a still-open socket shows as disconnected.
          socket.destroy();
        }, timeoutMs);
        const finish = (result: TransactResult) => {
          clearTimeout(timer);
          this.waiting = null;
          resolve(result);
        };
        this.waiting = { tid: this.tid, unit, pdu, finish };
        socket.write(Buffer.concat([header, pdu]));
      });
    });
  }

  close(): void {
    this.closed = true;
    this.socket?.destroy();
    this.waiting?.finish({ kind: 'notConnected' });
  }

  private open(): Promise<Socket | null> {
    if (this.socket) return Promise.resolve(this.socket);
    if (this.closed || Date.now() - this.lastFailure < RECONNECT_MS) return Promise.resolve(null);
    this.connecting ??= new Promise<Socket | null>((resolve) => {
      const socket = connect({ host: this.target.host, port: this.target.port });
      socket.setNoDelay(true);
      const timer = setTimeout(() => socket.destroy(), CONNECT_TIMEOUT_MS);
      socket.once('connect', () => {
        clearTimeout(timer);
        this.socket = socket;
        this.connectedSince = Date.now();
        this.buf = Buffer.alloc(0);
        resolve(socket);
      });
      socket.on('data', (chunk: Buffer) => this.received(chunk));
      socket.on('error', () => {
        // A refused or reset connection: close below ends the wait.
      });
      socket.once('close', () => {
        clearTimeout(timer);
        if (this.socket === socket) {
          this.socket = null;
          this.connectedSince = null;
        }
        this.lastFailure = Date.now();
        this.waiting?.finish({ kind: 'notConnected' });
        resolve(null);
      });
    }).finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private received(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    while (this.buf.length >= 7) {
      const length = this.buf.readUInt16BE(4);
      if (this.buf.readUInt16BE(2) !== 0 || length < 2 || length > 254) {
        // Not MBAP: nothing after it can be framed again; drop the connection.
        this.buf = Buffer.alloc(0);
        this.waiting?.finish({ kind: 'bad' });
        this.socket?.destroy();
        return;
      }
      if (this.buf.length < 6 + length) return;
      const frame = Buffer.from(this.buf.subarray(0, 6 + length));
      this.buf = this.buf.subarray(6 + length);
      const w = this.waiting;
      if (!w || frame.readUInt16BE(0) !== w.tid) continue;
      const pdu = Buffer.from(frame.subarray(7));
      if (frame[6] !== w.unit) w.finish({ kind: 'bad', frame });
      else w.finish({ ...answerOf(w.pdu, pdu), frame });
    }
  }
}
