/**
 * Sends PENDING cloud events in creation order, QoS 1, a bounded window in flight; an event becomes
 * DEPLOYED on the cloud's PUBACK. An event the cloud cannot take is FAILED with its reason and
 * skipped, so it never holds back the events behind it:
 * - larger than the cloud accepts: FAILED before sending;
 * - in flight when the cloud closed the connection: MQTT 3.1.1 has no negative PUBACK, a broker
 *   refuses by disconnecting. After a drop the next connection sends one event at a time until one
 *   is acknowledged, so the event that was alone in flight at `REFUSALS_TO_FAIL` drops is the one
 *   the cloud refuses.
 */
import type { MqttClient } from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import { transaction, type Db } from '../../db/sqlite.ts';
import { newId } from '../../lib/ids.ts';
import type { CloudEntityType, CloudEventKind } from '../../contract/cloud-link.ts';
import type { CloudEventRepository, CloudEventRow } from './cloud-event-repository.ts';
import { CloudPublisher } from './cloud-publisher.ts';
import { failureReason } from './failure-reason.ts';

const WINDOW = 32;
const REFUSALS_TO_FAIL = 3;

export interface NewCloudEvent {
  entityId: string;
  entityName: string;
  entityType: CloudEntityType;
  event: CloudEventKind;
  topic: string;
  body: unknown;
}

export class CloudEventSender extends CloudPublisher {
  private readonly inFlight = new Map<string, CloudEventRow>();
  private lastSeq = 0;
  private probing = false;
  private readonly refusals = new Map<string, number>();
  private readonly unsaved: Parameters<CloudEventRepository['insert']>[0][] = [];

  constructor(
    private readonly deps: {
      db: Db;
      rows: CloudEventRepository;
      maxPacketBytes: () => number;
      log: FastifyBaseLogger;
      acknowledged: (count: number) => void;
    },
  ) {
    super(deps.log);
  }

  /**
   * Stores an event; the events of one turn share a transaction, so a reconnect storm of
   * thousands of devices costs a few commits (each synced), not one per device.
   */
  record(e: NewCloudEvent): void {
    this.unsaved.push({ ...e, id: newId(), body: JSON.stringify(e.body), createdTime: Date.now() });
    if (this.unsaved.length > 1) return;
    setImmediate(() => this.save());
  }

  /** Writes what `record` gathered; called at close too. */
  save(): void {
    const rows = this.unsaved.splice(0);
    if (rows.length === 0) return;
    try {
      transaction(this.deps.db, () => {
        for (const row of rows) this.deps.rows.insert(row);
      });
    } catch (err) {
      this.log.error({ err, events: rows.length }, 'cloud events not stored');
    }
    this.schedule();
  }

  protected connectionLost(): void {
    if (this.inFlight.size === 1) {
      const [id] = this.inFlight.keys();
      this.refusals.set(id!, (this.refusals.get(id!) ?? 0) + 1);
    }
    if (this.inFlight.size > 0) this.probing = true;
    this.inFlight.clear();
    this.lastSeq = 0;
  }

  protected pump(client: MqttClient, generation: number): void {
    const window = this.probing ? 1 : WINDOW;
    if (this.inFlight.size >= window) return;
    const rows = this.deps.rows.pending(this.lastSeq, window - this.inFlight.size);
    for (const row of rows) {
      this.lastSeq = row.seq;
      if (this.inFlight.has(row.id)) continue;
      if ((this.refusals.get(row.id) ?? 0) >= REFUSALS_TO_FAIL) {
        this.fail(row, failureReason('error.cloud.closed'));
        continue;
      }
      const payload = Buffer.from(row.body);
      const max = this.deps.maxPacketBytes();
      // Topic, payload and a few header bytes: what the broker measures against its limit.
      const size = payload.length + Buffer.byteLength(row.topic) + 8;
      if (size > max) {
        this.fail(row, failureReason('error.cloud.tooLarge', { size, max }));
        continue;
      }
      this.inFlight.set(row.id, row);
      client.publish(row.topic, payload, { qos: 1 }, (err) => {
        if (generation !== this.generation || err) return;
        this.inFlight.delete(row.id);
        this.refusals.delete(row.id);
        this.probing = false;
        this.deps.rows.deployed(row.id, Date.now());
        this.deps.acknowledged(1);
        this.schedule();
      });
    }
    if (rows.length > 0) this.schedule();
  }

  private fail(row: CloudEventRow, reason: string): void {
    this.deps.log.warn({ cloudEvent: row.id, entity: row.entityName, event: row.event, reason }, 'cloud event failed');
    this.refusals.delete(row.id);
    this.deps.rows.failed(row.id, reason);
  }

  /** A FAILED event retried by a user is PENDING again; read from the start (in-flight ones are skipped). */
  retried(): void {
    this.lastSeq = 0;
    this.schedule();
  }
}
