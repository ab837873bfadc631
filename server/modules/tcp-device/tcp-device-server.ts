/**
 * The TCP access port (`--tcp-port`): DTUs and custom TCP devices connect and identify themselves
 * with their registration bytes (server/contract/tcp-device.ts): sent first (REGISTER_SEND,
 * REGISTRATION_PACKAGE) or in front of every frame (DATA_CARRY, REGISTRATION_PACKAGE), so in every
 * case the first bytes are the registration (a DATA_CARRY DTU's first frame is its heartbeat: the
 * gateway sends nothing before it knows who is connected).
 *
 * A connection that has not registered is answered the same way whatever its bytes: nothing is
 * sent, and it is closed when its window ends or once REGISTRATION_MAX_BYTES arrived without a
 * registration in front, never earlier, so the port tells no one whether some bytes begin a
 * registration. Failed registrations are counted per address, and unregistered connections are
 * capped per address and in total (tcp-admission.ts). A registration whose device is connected
 * already does not take the link from a live connection (tcp-device-takeover.ts). Refusals are
 * counted in `refusals` and logged at most once a minute per kind. Registered sockets go into the
 * registry (tcp-connections.ts); a device flooding the port is cut off.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { REGISTRATION_MAX_BYTES } from '../../contract/tcp-device.ts';
import { refusalWarning } from '../../lib/throttled-warning.ts';
import type { TcpDevice } from '../device/tcp-device.ts';
import { TCP_ACCESS_LIMITS, type TcpAccessLimits } from './tcp-access-limits.ts';
import { TcpAdmission } from './tcp-admission.ts';
import type { TcpConnections } from './tcp-connections.ts';
import { mayTakeOver } from './tcp-device-takeover.ts';

/** Bytes a device may send per second before it is disconnected as flooding. */
export const FLOOD_BYTES_PER_SECOND = 256 * 1024;

export interface TcpAccessServerDeps {
  connections: TcpConnections;
  /** TCP devices by registration bytes (upper-case hex), refreshed by the caller. */
  identities: () => ReadonlyMap<string, TcpDevice>;
  log: FastifyBaseLogger;
  limits?: Partial<TcpAccessLimits>;
}

export interface TcpRefusals {
  /** REGISTRATION_MAX_BYTES came without a registration in front. */
  unidentified: number;
  /** Nothing that registered came within the window. */
  timeouts: number;
  /** The client closed before it registered. */
  abandoned: number;
  /** Too many failed registrations from the address: closed as it arrived. */
  rateLimited: number;
  /** Too many unregistered connections from the address or in all: closed as it arrived. */
  busy: number;
  /** A registration whose device holds a live link from another address: the newcomer was closed. */
  takeovers: number;
  floods: number;
}

type Failure = 'unidentified' | 'timeouts' | 'abandoned';

export class TcpAccessServer {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly limits: TcpAccessLimits;
  private readonly admission: TcpAdmission;
  private readonly warn: Record<keyof TcpRefusals, (fields: Record<string, unknown>) => void>;
  readonly refusals: TcpRefusals = { unidentified: 0, timeouts: 0, abandoned: 0, rateLimited: 0, busy: 0, takeovers: 0, floods: 0 };

  constructor(private readonly deps: TcpAccessServerDeps) {
    this.limits = { ...TCP_ACCESS_LIMITS, ...deps.limits };
    this.admission = new TcpAdmission(this.limits);
    const { log } = deps;
    this.warn = {
      unidentified: refusalWarning(log, 'TCP connection sent no known registration; closed'),
      timeouts: refusalWarning(log, 'TCP connection did not register in time; closed'),
      abandoned: refusalWarning(log, 'TCP connection closed before it registered'),
      rateLimited: refusalWarning(log, 'TCP connection refused: too many failed registrations from its address'),
      busy: refusalWarning(log, 'TCP connection refused: too many unregistered connections'),
      takeovers: refusalWarning(log, 'TCP registration refused: its device is connected from elsewhere and not silent'),
      floods: refusalWarning(log, 'TCP device flooding the port; closed'),
    };
  }

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

  /** Connections that have not registered yet. */
  get unregistered(): number {
    return this.admission.unregistered;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private refuse(kind: keyof TcpRefusals, fields: Record<string, unknown>): void {
    this.refusals[kind]++;
    this.warn[kind](fields);
  }

  private accept(socket: Socket): void {
    const host = socket.remoteAddress;
    if (host === undefined) {
      socket.destroy(); // already gone
      return;
    }
    const refused = this.admission.admit(host);
    if (refused) {
      this.refuse(refused, { remoteAddress: host, unregistered: this.admission.unregistered });
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.setNoDelay(true);
    new PendingConnection(this, socket, host).listen();
  }

  /** @internal PendingConnection's way back: the connection failed to register and is closed. */
  failed(host: string, kind: Failure, fields: Record<string, unknown>): void {
    this.admission.failed(host);
    this.refuse(kind, { remoteAddress: host, ...fields });
  }

  /** @internal PendingConnection's way back: it registered or closed; it no longer counts as unregistered. */
  settled(host: string): void {
    this.admission.release(host);
  }

  /** @internal */
  closed(socket: Socket): void {
    this.sockets.delete(socket);
  }

  /** @internal The device whose registration the bytes start with (the longest), 'wait' while a longer one may still match. */
  identify(bytes: Buffer): { device: TcpDevice; length: number } | 'wait' | 'unknown' {
    const hex = bytes.toString('hex').toUpperCase();
    let best: { device: TcpDevice; length: number } | null = null;
    let longer = false;
    for (const [registration, device] of this.deps.identities()) {
      if (hex.startsWith(registration)) {
        if (!best || registration.length / 2 > best.length) best = { device, length: registration.length / 2 };
      } else if (registration.startsWith(hex)) longer = true;
    }
    if (best && !(longer && bytes.length < REGISTRATION_MAX_BYTES)) return best;
    // A connection whose bytes cannot begin any registration waits like one whose bytes can.
    return bytes.length >= REGISTRATION_MAX_BYTES ? 'unknown' : 'wait';
  }

  /** @internal */
  get context(): { deps: TcpAccessServerDeps; limits: TcpAccessLimits } {
    return { deps: this.deps, limits: this.limits };
  }

  /** @internal A registered device's link is refused when it would replace a live one; counts and logs it. */
  takeoverRefused(device: TcpDevice, host: string, remoteAddress: string): boolean {
    const { connections } = this.deps;
    const live = connections.get(device.id);
    if (mayTakeOver(live, connections.silentFor(device.id), host, this.limits.keepaliveMs)) return false;
    this.refuse('takeovers', { deviceId: device.id, remoteAddress, liveRemoteAddress: live?.remoteAddress });
    return true;
  }

  /** @internal */
  flooded(fields: Record<string, unknown>): void {
    this.refuse('floods', fields);
  }
}

/** One accepted socket, from its first byte until it registers or closes. */
class PendingConnection {
  private pending: Buffer = Buffer.alloc(0);
  private device: TcpDevice | null = null;
  private settled = false;
  private windowStart = Date.now();
  private windowBytes = 0;
  private readonly remoteAddress: string;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly server: TcpAccessServer,
    private readonly socket: Socket,
    private readonly host: string,
  ) {
    this.remoteAddress = `${host}:${socket.remotePort ?? 0}`;
    this.timer = setTimeout(() => this.fail('timeouts'), server.context.limits.identifyTimeoutMs);
    this.timer.unref();
  }

  listen(): void {
    const { socket } = this;
    socket.on('data', (chunk: Buffer) => this.data(chunk));
    socket.on('error', () => {
      // Resets from the network are normal for DTUs on mobile links; close handles the rest.
    });
    socket.on('close', () => this.close());
  }

  private data(chunk: Buffer): void {
    const { connections } = this.server.context.deps;
    const now = Date.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.windowBytes = 0;
    }
    this.windowBytes += chunk.length;
    if (this.windowBytes > FLOOD_BYTES_PER_SECOND) {
      this.server.flooded({ remoteAddress: this.remoteAddress, deviceId: this.device?.id });
      this.socket.destroy();
      return;
    }
    if (this.device) {
      connections.received(this.device.id, chunk);
      return;
    }
    if (this.settled) return;
    this.pending = Buffer.concat([this.pending, chunk]);
    const found = this.server.identify(this.pending);
    if (found === 'wait') return;
    if (found === 'unknown') {
      this.fail('unidentified');
      return;
    }
    this.register(found.device, found.length, now);
  }

  private register(device: TcpDevice, length: number, now: number): void {
    const { connections, log } = this.server.context.deps;
    this.settle();
    // The newcomer holds the registration, so nothing is learnt from its being refused at once.
    if (this.server.takeoverRefused(device, this.host, this.remoteAddress)) {
      this.socket.destroy();
      return;
    }
    this.device = device;
    const registration = Buffer.from(this.pending.subarray(0, length));
    connections.add(
      { deviceId: device.id, remoteAddress: this.remoteAddress, remoteHost: this.host, registration, authType: device.tcpAuthType, protocol: device.tcpProtocolType, connectedSince: now },
      this.socket,
    );
    log.info({ deviceId: device.id, remoteAddress: this.remoteAddress }, 'TCP device identified');
    const rest = this.pending.subarray(length);
    this.pending = Buffer.alloc(0);
    if (rest.length) connections.received(device.id, Buffer.from(rest));
  }

  /** Closes a connection that did not register: the same for every byte sequence that is no registration. */
  private fail(kind: Failure): void {
    if (this.settled) return;
    this.settle();
    this.server.failed(this.host, kind, { bytes: this.pending.length });
    this.socket.destroy();
  }

  private settle(): void {
    this.settled = true;
    clearTimeout(this.timer);
    this.server.settled(this.host);
  }

  private close(): void {
    this.server.closed(this.socket);
    if (!this.settled) this.fail('abandoned');
    if (this.device) {
      const { connections, log } = this.server.context.deps;
      connections.remove(this.device.id, this.socket);
      log.info({ deviceId: this.device.id, remoteAddress: this.remoteAddress }, 'TCP device disconnected');
    }
  }
}
