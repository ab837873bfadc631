/**
 * What the two senders of the cloud link share (cloud events, stored telemetry): the current
 * connection, a generation bumped at every connect and disconnect so a PUBACK of an older
 * connection is ignored, and a pump that runs at most once per turn of the event loop.
 */
import type { MqttClient } from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/sqlite.ts';
import type { CloudProgress } from './cloud-progress.ts';

export abstract class CloudPublisher {
  protected client: MqttClient | null = null;
  protected generation = 0;
  private scheduled = false;

  constructor(protected readonly log: FastifyBaseLogger) {}

  connected(client: MqttClient): void {
    this.client = client;
    this.generation++;
    this.schedule();
  }

  disconnected(): void {
    this.client = null;
    this.generation++;
    this.connectionLost();
  }

  /** Runs `pump` on the next turn, once, while connected. */
  schedule(): void {
    if (this.scheduled || !this.client) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const client = this.client;
      if (!client) return;
      try {
        this.pump(client, this.generation);
      } catch (err) {
        // A database or encoding failure must not escape into mqtt.js's callbacks.
        this.log.error({ err }, 'cloud link: sending failed');
      }
    });
  }

  /** Publishes what fits in the window; acknowledgements of `generation` only count. */
  protected abstract pump(client: MqttClient, generation: number): void;

  /** The connection went away: forget what was in flight (it is sent again). */
  protected abstract connectionLost(): void;
}

/** Whether a `v1/gateway/telemetry` payload, with its topic and header bytes, stays within the broker's limit. */
export function fitsPacket(payload: Buffer, max: number): boolean {
  return fitsBytes(payload.length, max);
}

/** fitsPacket for a payload of `bytes` not encoded yet. */
export function fitsBytes(bytes: number, max: number): boolean {
  return bytes + 30 <= max;
}

/** What both uplinks (stored telemetry, device events) are given. */
export interface UplinkDeps {
  db: Db;
  progress: CloudProgress;
  nameOf: (deviceId: string) => string | null;
  maxPacketBytes: () => number;
  log: FastifyBaseLogger;
  acknowledged: (count: number) => void;
}
