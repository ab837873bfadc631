/**
 * Store-and-forward of device events, the way telemetry-uplink.ts does telemetry: the events the
 * cloud has not acknowledged are read from the event records the telemetry module already stored
 * (no second queue), in the order they were stored (`seq`), and each is published as telemetry of
 * its identifier on `v1/gateway/telemetry`, QoS 1, a bounded window in flight. Live events take the
 * same road: a stored record only wakes the pump.
 *
 * The position is one durable cursor, the newest `seq` of the contiguous acknowledged prefix
 * (`cloud_progress.event_seq`, written with the telemetry cursors): a restart or kill -9 resends at
 * most what was in flight. `seq` is an AUTOINCREMENT key (migration 0040, raised to the cursor by
 * 0041): a plain rowid would be handed out again after the newest records were deleted with their
 * device, and the records taking those numbers would sit behind the cursor, never sent.
 *
 * An event of a device the cloud does not know (deleted since), older than the retention, or too
 * large for the cloud is skipped (the last two counted as dropped): it never blocks the ones after it.
 */
import type { MqttClient } from 'mqtt';
import { CloudPublisher, fitsPacket, type UplinkDeps } from './cloud-publisher.ts';
import { deviceTopics } from '../../contract/device-api.ts';
import type { TelemetryService } from '../telemetry/telemetry-service.ts';
import type { SequencedEvent } from '../telemetry/telemetry-rows.ts';

const DAY_MS = 86_400_000;

interface Sent {
  seq: number;
  acked: boolean;
}

export class EventUplink extends CloudPublisher {
  /** In publish order: events awaiting PUBACK. */
  private inFlight: Sent[] = [];
  /** The newest seq published on this connection (null: start from the cursor). */
  private readPos: number | null = null;

  constructor(
    private readonly deps: Omit<UplinkDeps, 'db'> & {
      /** The event records are the telemetry module's; it reads them for us. */
      events: Pick<TelemetryService, 'eventsAfter' | 'eventsWaiting' | 'newestEventSeq'>;
      retentionDays: () => number;
      window: number;
    },
  ) {
    super(deps.log);
  }

  /** The cloud was configured for the first time: only events from now on are owed to it. */
  startFromNow(): void {
    this.deps.progress.eventsAcked(this.deps.events.newestEventSeq());
    this.readPos = null;
  }

  /** Event records not yet acknowledged, and the oldest one's ts. */
  backlog(): { messages: number; oldestTs?: number } {
    const { count, oldestTs } = this.deps.events.eventsWaiting(this.deps.progress.eventSeq);
    return oldestTs === null ? { messages: count } : { messages: count, oldestTs };
  }

  protected connectionLost(): void {
    this.inFlight = [];
    this.readPos = null;
  }

  protected pump(client: MqttClient, generation: number): void {
    const room = this.deps.window - this.inFlight.length;
    if (room <= 0) return;
    const rows = this.deps.events.eventsAfter(this.readPos ?? this.deps.progress.eventSeq, room);
    if (rows.length === 0) return;
    const retentionStart = Date.now() - this.deps.retentionDays() * DAY_MS;
    const max = this.deps.maxPacketBytes();
    for (const row of rows) {
      this.readPos = row.seq;
      const sent: Sent = { seq: row.seq, acked: false };
      this.inFlight.push(sent);
      const name = this.deps.nameOf(row.deviceId);
      const payload = name === null ? null : encode(name, row);
      if (name === null || payload === null || row.ts < retentionStart || !fitsPacket(payload, max)) {
        if (name !== null) {
          this.deps.progress.countDropped(1);
          this.deps.log.warn({ deviceId: row.deviceId, identifier: row.identifier }, 'cloud: device event not sendable (older than the retention, unreadable or too large): dropped');
        }
        this.acked(sent);
        continue;
      }
      client.publish(deviceTopics.gatewayTelemetry, payload, { qos: 1 }, (err) => {
        if (err || generation !== this.generation) return;
        this.deps.acknowledged(1);
        this.acked(sent);
        this.schedule();
      });
    }
    // A full read may have more behind it; skipped rows free their room at once.
    if (this.inFlight.length < this.deps.window) this.schedule();
  }

  private acked(sent: Sent): void {
    sent.acked = true;
    let advanced: number | null = null;
    while (this.inFlight.length > 0 && this.inFlight[0]!.acked) advanced = this.inFlight.shift()!.seq;
    if (advanced !== null) this.deps.progress.eventsAcked(advanced);
  }
}

function encode(name: string, row: SequencedEvent): Buffer | null {
  try {
    return Buffer.from(JSON.stringify({ [name]: [{ ts: row.ts, values: { [row.identifier]: JSON.parse(row.params) as unknown } }] }));
  } catch {
    return null;
  }
}
