/**
 * What the transport writes to one MQTT connection, in the connection's protocol version.
 *
 * Acknowledgements (PUBACK, PUBREC) are the hot path: a telemetry commit settles many messages of
 * many connections at once, so each connection gathers the 4-5 bytes of each acknowledgement in a
 * buffer and writes them in one socket write on the next tick, instead of one write (and one
 * Buffer from the codec) per message. Every other packet is rare and encoded by mqtt-packet.
 */
import type { Socket } from 'node:net';
import mqttPacket, { type IConnackPacket, type IPublishPacket, type Packet } from 'mqtt-packet';

export type ProtocolVersion = 3 | 4 | 5;

/** PUBACK and PUBREC fixed header bytes. */
export const PUBACK = 0x40;
export const PUBREC = 0x50;
const PUBCOMP = 0x70;
const PINGRESP = Buffer.from([0xd0, 0x00]);
/** Enough for a full in-flight window of 5-byte acknowledgements before the buffer grows. */
const ACK_BUFFER_BYTES = 512;

export class MqttPacketWriter {
  /**
   * Packets decided before the CONNACK went out (a queued RPC sent by the ONLINE announcement of
   * the connect itself, a shared-attribute push, a resent message): MQTT makes CONNACK the first
   * packet of the server, and clients (mosquitto_sub, MQTT.js) fail or reconnect when it is not.
   * Null once the CONNACK is written.
   */
  private beforeConnack: Buffer[] | null = [];
  private acks: Buffer | null = null;
  private ackBytes = 0;
  private flushQueued = false;
  private readonly flush = (): void => {
    this.flushQueued = false;
    const { acks, ackBytes } = this;
    if (!acks || ackBytes === 0) return;
    this.ackBytes = 0;
    // A copy: the socket holds the chunk until it is written, and the buffer is reused.
    if (this.socket.writable) this.socket.write(Buffer.from(acks.subarray(0, ackBytes)));
  };

  constructor(
    private readonly socket: Socket,
    public version: ProtocolVersion = 4,
  ) {}

  /**
   * PUBACK or PUBREC (`type`) for `messageId`; MQTT 5 carries `reason` when it is not success
   * (3.1.1 has no reason: the acknowledgement is plain).
   */
  ack(type: number, messageId: number, reason: number): void {
    const withReason = this.version === 5 && reason !== 0;
    const size = withReason ? 5 : 4;
    if (!this.acks || this.ackBytes + size > this.acks.length) this.grow(size);
    const buf = this.acks!;
    let at = this.ackBytes;
    buf[at++] = type;
    buf[at++] = withReason ? 3 : 2;
    buf[at++] = messageId >> 8;
    buf[at++] = messageId & 0xff;
    if (withReason) buf[at++] = reason;
    this.ackBytes = at;
    if (!this.flushQueued) {
      this.flushQueued = true;
      process.nextTick(this.flush);
    }
  }

  /** PUBCOMP answers a PUBREL at once (QoS 2's second half; no storage involved). */
  pubcomp(messageId: number): void {
    this.raw(Buffer.from([PUBCOMP, 2, messageId >> 8, messageId & 0xff]));
  }

  pingresp(): void {
    this.raw(PINGRESP);
  }

  connack(sessionPresent: boolean, code: number, properties?: IConnackPacket['properties']): void {
    const packet: IConnackPacket =
      this.version === 5
        ? { cmd: 'connack', sessionPresent, reasonCode: code, ...(properties ? { properties } : {}) }
        : { cmd: 'connack', sessionPresent, returnCode: code };
    const waiting = this.beforeConnack;
    this.beforeConnack = null;
    this.packet(packet);
    // A refused CONNECT ends the connection: nothing decided for it goes out.
    if (waiting && code === 0) for (const bytes of waiting) this.raw(bytes);
  }

  suback(messageId: number, granted: number[]): void {
    this.packet({ cmd: 'suback', messageId, granted });
  }

  unsuback(messageId: number, count: number): void {
    // MQTT 5 answers each filter (0x00 success); the codec writes no payload for 3.1.1.
    this.packet({ cmd: 'unsuback', messageId, granted: new Array<number>(count).fill(0) });
  }

  publish(topic: string, payload: Buffer, qos: 0 | 1, messageId: number, dup: boolean): void {
    const packet: IPublishPacket = { cmd: 'publish', topic, payload, qos, dup, retain: false };
    if (qos > 0) packet.messageId = messageId;
    this.packet(packet);
  }

  /** MQTT 5 only: the server ends the connection and says why (3.1.1 has no server DISCONNECT). */
  disconnect(reason: number): void {
    if (this.version === 5) this.packet({ cmd: 'disconnect', reasonCode: reason });
  }

  private packet(packet: Packet): void {
    // Acknowledgements already settled go out first: packets leave in the order they were decided.
    if (this.ackBytes > 0) this.flush();
    const bytes = mqttPacket.generate(packet, { protocolVersion: this.version });
    if (this.beforeConnack && packet.cmd !== 'connack') this.beforeConnack.push(bytes);
    else this.raw(bytes);
  }

  private raw(bytes: Buffer): void {
    if (this.socket.writable) this.socket.write(bytes);
  }

  private grow(size: number): void {
    const next = Buffer.allocUnsafe(Math.max(ACK_BUFFER_BYTES, (this.acks?.length ?? 0) * 2, this.ackBytes + size));
    if (this.acks) this.acks.copy(next, 0, 0, this.ackBytes);
    this.acks = next;
  }
}
