/**
 * The TCP access port (`--tcp-port`): DTUs and custom TCP devices connect and identify themselves
 * with their registration bytes (server/contract/tcp-device.ts): sent first (REGISTER_SEND,
 * REGISTRATION_PACKAGE) or in front of every frame (DATA_CARRY, REGISTRATION_PACKAGE), so in every
 * case the first bytes are the registration (a DATA_CARRY DTU's first frame is its heartbeat: the
 * gateway sends nothing before it knows who is connected). Nothing identified within TCP_IDENTIFY_TIMEOUT_MS, or
 * bytes that begin no known registration, close the socket with a log line. Identified sockets go
 * into the registry (tcp-connections.ts); a device flooding the port is cut off.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { TCP_IDENTIFY_TIMEOUT_MS } from '../../contract/modbus.ts';
import type { TcpDevice } from '../device/tcp-device.ts';
import type { TcpConnections } from './tcp-connections.ts';

/** Bytes a device may send per second before it is disconnected as flooding. */
export const FLOOD_BYTES_PER_SECOND = 256 * 1024;
/** Longest registration looked for (64 bytes) plus room for a first frame behind it. */
const IDENTIFY_BUFFER_MAX = 1024;

export interface TcpAccessServerDeps {
  connections: TcpConnections;
  /** TCP devices by registration bytes (upper-case hex), refreshed by the caller. */
  identities: () => ReadonlyMap<string, TcpDevice>;
  log: FastifyBaseLogger;
  identifyTimeoutMs?: number;
}

export interface TcpRefusals {
  unidentified: number;
  timeouts: number;
  floods: number;
}

export class TcpAccessServer {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  readonly refusals: TcpRefusals = { unidentified: 0, timeouts: 0, floods: 0 };

  constructor(private readonly deps: TcpAccessServerDeps) {}

  async start(host: string, port: number): Promise<void> {
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  get port(): number {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address.port : 0;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    const { log, connections } = this.deps;
    this.sockets.add(socket);
    socket.setNoDelay(true);
    const remoteAddress = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? 0}`;
    let pending: Buffer = Buffer.alloc(0);
    let device: TcpDevice | null = null;
    let windowStart = Date.now();
    let windowBytes = 0;
    const timer = setTimeout(() => {
      this.refusals.timeouts++;
      log.warn({ remoteAddress, bytes: pending.length }, 'TCP device did not identify in time; closed');
      socket.destroy();
    }, this.deps.identifyTimeoutMs ?? TCP_IDENTIFY_TIMEOUT_MS);
    timer.unref();

    socket.on('data', (chunk: Buffer) => {
      const now = Date.now();
      if (now - windowStart >= 1000) {
        windowStart = now;
        windowBytes = 0;
      }
      windowBytes += chunk.length;
      if (windowBytes > FLOOD_BYTES_PER_SECOND) {
        this.refusals.floods++;
        log.warn({ remoteAddress, deviceId: device?.id }, 'TCP device flooding the port; closed');
        socket.destroy();
        return;
      }
      if (device) {
        connections.received(device.id, chunk);
        return;
      }
      pending = Buffer.concat([pending, chunk]);
      const found = this.identify(pending);
      if (found === 'wait' && pending.length < IDENTIFY_BUFFER_MAX) return;
      clearTimeout(timer);
      if (found === 'wait' || found === 'unknown') {
        this.refusals.unidentified++;
        log.warn({ remoteAddress, first: pending.subarray(0, 32).toString('hex') }, 'TCP device sent no known registration; closed');
        socket.destroy();
        return;
      }
      device = found.device;
      const registration = pending.subarray(0, found.length);
      connections.add(
        { deviceId: device.id, remoteAddress, registration: Buffer.from(registration), authType: device.tcpAuthType, protocol: device.tcpProtocolType, connectedSince: now },
        socket,
      );
      log.info({ deviceId: device.id, remoteAddress }, 'TCP device identified');
      const rest = pending.subarray(found.length);
      pending = Buffer.alloc(0);
      if (rest.length) connections.received(device.id, Buffer.from(rest));
    });
    socket.on('error', () => {
      // Resets from the network are normal for DTUs on mobile links; close handles the rest.
    });
    socket.on('close', () => {
      clearTimeout(timer);
      this.sockets.delete(socket);
      if (device) {
        connections.remove(device.id, socket);
        log.info({ deviceId: device.id, remoteAddress }, 'TCP device disconnected');
      }
    });
  }

  /** The device whose registration the bytes start with (the longest), 'wait' while they may still become one. */
  private identify(bytes: Buffer): { device: TcpDevice; length: number } | 'wait' | 'unknown' {
    const hex = bytes.toString('hex').toUpperCase();
    let best: { device: TcpDevice; length: number } | null = null;
    let mayGrow = false;
    for (const [registration, device] of this.deps.identities()) {
      if (hex.startsWith(registration)) {
        if (!best || registration.length / 2 > best.length) best = { device, length: registration.length / 2 };
      } else if (registration.startsWith(hex)) mayGrow = true;
    }
    if (best) return best;
    return mayGrow ? 'wait' : 'unknown';
  }
}
