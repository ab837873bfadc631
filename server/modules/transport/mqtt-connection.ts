/**
 * One device's MQTT connection (3.1, 3.1.1 or 5) as a state machine over the mqtt-packet codec:
 * waiting for CONNECT (10 s), authenticating, open, closed. It owns what is per socket: decoding,
 * the keepalive (×1.5), the order of acknowledgements and the back-pressure, and hands each
 * decoded packet to its host (mqtt-broker.ts), which owns authentication, sessions and what a
 * message means.
 *
 * - Acknowledgements of publishes leave in arrival order, once the host settles each (after the
 *   batch holding it is committed): mqtt-ack-queue.ts. A publish the host could not store gets no
 *   acknowledgement and closes the connection; the device sends it again.
 * - Back-pressure: with MQTT_INFLIGHT_MAX publishes in flight the socket is no longer read until
 *   a settlement frees a place (MQTT 5 clients are told the same limit as Receive Maximum).
 * - Packets that arrive while CONNECT is being authenticated wait, in order.
 * - Timers: the broker's one sweep a second calls `tick`; a packet only notes the coarse time.
 */
import type { Socket } from 'node:net';
import mqttPacket, {
  type IConnectPacket,
  type IDisconnectPacket,
  type IPublishPacket,
  type ISubscribePacket,
  type IUnsubscribePacket,
  type Packet,
} from 'mqtt-packet';
import { MQTT_INFLIGHT_MAX } from '../../contract/device-api.ts';
import type { ConnectedDevice } from './device-messages.ts';
import { AckQueue, NO_ACK } from './mqtt-ack-queue.ts';
import { MqttPacketWriter, PUBACK, PUBREC, type ProtocolVersion } from './mqtt-packet-writer.ts';
import { ConnackV3, Reason } from './mqtt-reason-codes.ts';
import type { MqttSession } from './mqtt-sessions.ts';

/** A CONNECT must arrive this soon after the socket opens. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** MQTT: the server may close a connection silent for 1.5 times its keepalive. */
const KEEPALIVE_FACTOR = 1.5;

/** A will as the connection keeps it until the connection ends. */
export interface Will {
  topic: string;
  payload: Buffer;
}

/** What the connection hands its packets to. */
export interface MqttConnectionHost {
  /** Authenticates, then calls `accept` or `refuse` on the connection. */
  connect(conn: MqttConnection, packet: IConnectPacket): void;
  /** Handles a publish; `settle(reason)` once done (`null`: not stored, the connection closes). */
  publish(conn: MqttConnection, packet: IPublishPacket, settle: (reason: number | null) => void): void;
  subscribe(conn: MqttConnection, packet: ISubscribePacket): void;
  unsubscribe(conn: MqttConnection, packet: IUnsubscribePacket): void;
  /** The device acknowledged server message `messageId`. */
  acknowledged(conn: MqttConnection, messageId: number): void;
  /** A CONNECT with a protocol version this server does not speak. */
  unsupportedVersion(conn: MqttConnection, version: number): void;
  /** The connection is over (whatever ended it); called once. */
  closed(conn: MqttConnection): void;
}

/** The coarse clock the broker's sweep advances: a packet notes it without a syscall. */
export interface CoarseClock {
  now: number;
}

type Phase = 'awaitConnect' | 'authenticating' | 'open' | 'closed';

type PacketParser = ReturnType<typeof mqttPacket.parser>;

/**
 * An mqtt-packet parser that buffers its input in bl's plain BufferList rather than in the
 * BufferListStream it makes itself: a Duplex stream it never uses as one (it only appends,
 * reads and consumes), ~1 KB of heap per connection against ~90 B, 9 MB at 10,000 devices.
 * bl exports the plain list on the stream's constructor; if a later bl did not, the stream stays.
 * After a parse error the parser makes a stream again, but such a connection is closed.
 */
function lightParser(): PacketParser {
  const parser = mqttPacket.parser();
  const internals = parser as unknown as { _list: { constructor: { BufferList?: new () => unknown } } };
  const Plain = internals._list.constructor.BufferList;
  if (Plain) internals._list = new Plain() as typeof internals._list;
  return parser;
}

export class MqttConnection {
  readonly writer: MqttPacketWriter;
  phase: Phase = 'awaitConnect';
  /** The authenticated device; null for a provisioning connection. */
  device: ConnectedDevice | null = null;
  session: MqttSession | null = null;
  clientId = '';
  will: Will | null = null;
  /** The server ended the connection (credentials replaced, device deleted, shutdown): its will is dropped. */
  endedByServer = false;
  private keepaliveMs = 0;
  private heardAt: number;
  private readonly openedAt: number;
  private readonly parser = lightParser();
  private readonly acks = new AckQueue();
  /** QoS 2 message ids acknowledged with PUBREC, until their PUBREL; made on the first (devices seldom use QoS 2, and a Set is ~160 B per connection). */
  private qos2: Set<number> | null = null;
  private early: Packet[] | null = null;
  private paused = false;
  /** The client ended with DISCONNECT (0x04 asks for its will all the same). */
  private graceful = false;
  private readonly sendAck = (type: number, messageId: number, reason: number): void => this.writer.ack(type, messageId, reason);

  constructor(
    readonly socket: Socket,
    private readonly host: MqttConnectionHost,
    private readonly clock: CoarseClock,
  ) {
    this.writer = new MqttPacketWriter(socket);
    this.heardAt = clock.now;
    this.openedAt = clock.now;
    this.parser.on('packet', (packet: Packet) => this.onPacket(packet));
    this.parser.on('error', (err: Error) => this.onParseError(err));
    socket.on('data', (chunk: Buffer) => {
      if (this.phase === 'closed') return;
      this.heardAt = this.clock.now;
      this.parser.parse(chunk);
      if (!this.paused && this.acks.size >= MQTT_INFLIGHT_MAX) this.pause();
    });
    socket.on('error', () => this.close(false));
    socket.on('close', () => this.close(false));
  }

  get version(): ProtocolVersion {
    return this.writer.version;
  }

  get remoteAddress(): string | undefined {
    return this.socket.remoteAddress;
  }

  /** Whether the will is to be published: the connection dropped without the client or the server ending it. */
  get willDue(): boolean {
    return this.will !== null && !this.endedByServer && !this.graceful;
  }

  /** CONNECT accepted: CONNACK, then the packets that waited for it. */
  accept(sessionPresent: boolean, properties?: Parameters<MqttPacketWriter['connack']>[2]): void {
    if (this.phase !== 'authenticating') return;
    this.phase = 'open';
    this.writer.connack(sessionPresent, this.version === 5 ? Reason.success : ConnackV3.accepted, properties);
    const early = this.early;
    this.early = null;
    this.resume();
    for (const packet of early ?? []) this.onPacket(packet);
  }

  /** CONNECT refused with `code` (a 3.1.1 return code or an MQTT 5 reason, by version), then closed. */
  refuse(code: number): void {
    if (this.phase === 'closed') return;
    this.writer.connack(false, code);
    this.endedByServer = true;
    this.close(true);
  }

  /**
   * The server ends the connection; MQTT 5 is told `reason` first. `dropWill`: the server's own
   * decision (credentials replaced, device deleted, shutdown), not the device's failure.
   */
  end(reason: number, dropWill: boolean): void {
    if (this.phase === 'closed') return;
    if (dropWill) this.endedByServer = true;
    if (this.phase === 'open') this.writer.disconnect(reason);
    this.close(true);
  }

  /** Called by the broker's sweep: CONNECT and keepalive deadlines. */
  tick(now: number): void {
    if (this.phase === 'awaitConnect' && now - this.openedAt > CONNECT_TIMEOUT_MS) this.close(true);
    else if (this.phase === 'open' && this.keepaliveMs > 0 && now - this.heardAt > this.keepaliveMs * KEEPALIVE_FACTOR) this.end(Reason.keepAliveTimeout, false);
  }

  private onPacket(packet: Packet): void {
    if (this.phase === 'closed') return;
    if (this.phase === 'authenticating') {
      (this.early ??= []).push(packet);
      return;
    }
    if (this.phase === 'awaitConnect') {
      if (packet.cmd !== 'connect') {
        this.close(true);
        return;
      }
      this.onConnect(packet);
      return;
    }
    switch (packet.cmd) {
      case 'publish':
        return this.onPublish(packet);
      case 'puback':
        return this.host.acknowledged(this, packet.messageId!);
      case 'pubrel':
        this.qos2?.delete(packet.messageId!);
        return this.writer.pubcomp(packet.messageId!);
      case 'subscribe':
        return this.host.subscribe(this, packet);
      case 'unsubscribe':
        return this.host.unsubscribe(this, packet);
      case 'pingreq':
        return this.writer.pingresp();
      case 'disconnect':
        return this.onDisconnect(packet);
      default:
        // A second CONNECT, or a packet only a server sends: a protocol error.
        this.end(Reason.protocolError, false);
    }
  }

  private onConnect(packet: IConnectPacket): void {
    this.writer.version = (packet.protocolVersion ?? 4) as ProtocolVersion;
    this.keepaliveMs = (packet.keepalive ?? 0) * 1000;
    this.clientId = packet.clientId;
    this.phase = 'authenticating';
    this.pause();
    this.host.connect(this, packet);
  }

  private onPublish(packet: IPublishPacket): void {
    // The CONNACK said Topic Alias Maximum 0: an alias is a protocol error the client must hear (MQTT 5 section 3.3.2.3.4).
    if (packet.properties?.topicAlias !== undefined) {
      this.end(Reason.topicAliasInvalid, false);
      return;
    }
    const qos = packet.qos;
    const id = packet.messageId ?? 0;
    if (qos === 2 && this.qos2?.has(id)) {
      // A resent QoS 2 publish whose PUBREC went out: acknowledged again, not handled twice.
      this.acks.settle(this.acks.push(PUBREC, id), Reason.success, this.sendAck);
      return;
    }
    const seq = this.acks.push(qos === 0 ? NO_ACK : qos === 1 ? PUBACK : PUBREC, id);
    this.host.publish(this, packet, (reason) => this.settled(seq, qos, id, reason));
  }

  private settled(seq: number, qos: number, id: number, reason: number | null): void {
    if (this.phase === 'closed') return;
    if (reason === null) {
      this.close(true);
      return;
    }
    if (qos === 2 && reason < Reason.unspecified) (this.qos2 ??= new Set()).add(id);
    this.acks.settle(seq, reason, this.sendAck);
    if (this.paused && this.phase === 'open' && this.acks.size < MQTT_INFLIGHT_MAX) this.resume();
  }

  private onDisconnect(packet: IDisconnectPacket): void {
    this.graceful = packet.reasonCode !== Reason.disconnectWithWill;
    const expiry = packet.properties?.sessionExpiryInterval;
    // MQTT 5: a client may change its session's expiry on DISCONNECT, unless it began at 0.
    if (this.session && expiry !== undefined && this.session.expirySeconds > 0) this.session.expirySeconds = expiry;
    this.close(true);
  }

  private onParseError(err: Error): void {
    if (this.phase === 'awaitConnect' && /protocol version/i.test(err.message)) {
      const version = (this.parser as unknown as { packet: { protocolVersion?: number } }).packet.protocolVersion ?? 0;
      this.host.unsupportedVersion(this, version);
      return;
    }
    this.close(true);
  }

  private pause(): void {
    this.paused = true;
    this.socket.pause();
  }

  private resume(): void {
    this.paused = false;
    this.socket.resume();
  }

  /** Ends the socket (once what was written has gone when `flush`) and tells the host once. */
  private close(flush: boolean): void {
    if (this.phase === 'closed') {
      if (!flush && !this.socket.destroyed) this.socket.destroy();
      return;
    }
    this.phase = 'closed';
    this.acks.clear();
    this.early = null;
    if (flush && !this.socket.destroyed) {
      this.socket.end();
      // A client that never closes its side does not keep the socket.
      setTimeout(() => this.socket.destroy(), 1000).unref();
    } else this.socket.destroy();
    this.host.closed(this);
  }
}
