/**
 * The registry of identified TCP connections, by device: who is connected, from where, with which
 * registration, the frames they send. Other modules subscribe to a device's frames and write frames
 * back through it (the Modbus master; the soft gateway's edge TCP in/out nodes for devices of the
 * CUSTOM protocol: server/modules/node-red/node-red-palette.ts) without touching the server that
 * accepts the sockets (tcp-device-server.ts). A device nobody subscribes to is served as before:
 * its frames are counted and shown, nothing else.
 */
import type { Socket } from 'node:net';
import type { TcpAuthType, TcpProtocolType } from '../../contract/product.ts';

/** Last frames are shown up to this many bytes. */
const LAST_FRAME_MAX = 256;

export interface TcpConnection {
  deviceId: string;
  /** `host:port`. */
  remoteAddress: string;
  /** The host alone: a newcomer from the same host may replace the link (tcp-device-server.ts). */
  remoteHost: string;
  /** The registration bytes the device identified with. */
  registration: Buffer;
  authType: TcpAuthType;
  protocol: TcpProtocolType;
  connectedSince: number;
}

export type FrameListener = (chunk: Buffer) => void;
export type ConnectionListener = (connection: TcpConnection, up: boolean) => void;

export interface FrameStats {
  framesIn: number;
  lastFrameHex: string | null;
  lastFrameTs: number | null;
}

interface Entry {
  connection: TcpConnection;
  socket: Socket;
  /** When bytes last came (or the connection registered). */
  lastHeardAt: number;
}

export class TcpConnections {
  private readonly open = new Map<string, Entry>();
  private readonly frameListeners = new Map<string, Set<FrameListener>>();
  private readonly connectionListeners = new Set<ConnectionListener>();
  private readonly stats = new Map<string, FrameStats>();

  /** A connection identified as `connection.deviceId`; an older one of the same device is closed first. */
  add(connection: TcpConnection, socket: Socket): void {
    const old = this.open.get(connection.deviceId);
    if (old) {
      this.remove(connection.deviceId, old.socket);
      old.socket.destroy();
    }
    this.open.set(connection.deviceId, { connection, socket, lastHeardAt: connection.connectedSince });
    for (const listener of this.connectionListeners) listener(connection, true);
  }

  /** The socket closed; ignored when it is not the device's current one (a replaced connection). */
  remove(deviceId: string, socket: Socket): void {
    const entry = this.open.get(deviceId);
    if (!entry || entry.socket !== socket) return;
    this.open.delete(deviceId);
    for (const listener of this.connectionListeners) listener(entry.connection, false);
  }

  /** Bytes from the device (registration prefix included as sent). */
  received(deviceId: string, chunk: Buffer): void {
    const entry = this.open.get(deviceId);
    if (entry) entry.lastHeardAt = Date.now();
    const s = this.statsOf(deviceId);
    s.framesIn++;
    s.lastFrameHex = chunk.subarray(0, LAST_FRAME_MAX).toString('hex').toUpperCase();
    s.lastFrameTs = Date.now();
    for (const listener of this.frameListeners.get(deviceId) ?? []) listener(chunk);
  }

  get(deviceId: string): TcpConnection | undefined {
    return this.open.get(deviceId)?.connection;
  }

  /** How long the device's live connection has sent nothing; undefined when it has none. */
  silentFor(deviceId: string, now = Date.now()): number | undefined {
    const entry = this.open.get(deviceId);
    return entry && !entry.socket.destroyed ? now - entry.lastHeardAt : undefined;
  }

  connections(): TcpConnection[] {
    return [...this.open.values()].map((e) => e.connection);
  }

  frameStats(deviceId: string): FrameStats {
    return { ...this.statsOf(deviceId) };
  }

  /** Sends bytes to the device; false when it is not connected. */
  write(deviceId: string, bytes: Uint8Array): boolean {
    const entry = this.open.get(deviceId);
    if (!entry || entry.socket.destroyed) return false;
    entry.socket.write(bytes);
    return true;
  }

  /** Closes the device's connection (e.g. after a protocol error it cannot recover from). */
  close(deviceId: string): void {
    this.open.get(deviceId)?.socket.destroy();
  }

  onFrames(deviceId: string, listener: FrameListener): () => void {
    const set = this.frameListeners.get(deviceId) ?? new Set();
    set.add(listener);
    this.frameListeners.set(deviceId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.frameListeners.delete(deviceId);
    };
  }

  /** Every connection and disconnection, as they happen. */
  onConnection(listener: ConnectionListener): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  forget(deviceId: string): void {
    this.close(deviceId);
    this.stats.delete(deviceId);
  }

  closeAll(): void {
    for (const { socket } of this.open.values()) socket.destroy();
  }

  private statsOf(deviceId: string): FrameStats {
    let s = this.stats.get(deviceId);
    if (!s) {
      s = { framesIn: 0, lastFrameHex: null, lastFrameTs: null };
      this.stats.set(deviceId, s);
    }
    return s;
  }
}
