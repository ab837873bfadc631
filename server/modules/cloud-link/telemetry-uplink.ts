/**
 * Store-and-forward of telemetry: what the cloud has not acknowledged is read from the history the
 * telemetry module already stored (no second queue), oldest first per device, and published on
 * `v1/gateway/telemetry` with QoS 1 and a bounded window in flight, at the pace of the broker's
 * PUBACKs. A commit (`telemetry.stored`) of a device that is caught up goes live instead, without
 * reading the history back: its values are gathered for LIVE_GATHER_MS and every device's go in
 * one message (the gateway topic names the device in the payload), so forwarding costs a fraction
 * of the local ingest (scripts/lib/bench-cloud-live.ts). A device with a backlog, a full window, a
 * value from the future or older than a day takes the road through the history.
 *
 * The position is a durable cursor per device (`cloud_cursor`, migration 0021): the newest ts the
 * cloud acknowledged. It moves only on PUBACK and only over a device's contiguous acknowledged
 * prefix, so a restart or kill -9 resends at most what was in flight. History is ordered by ts,
 * not by arrival, and has no arrival sequence that survives the staging move
 * (docs/PERFORMANCE-FINDINGS.md, "Staging"), so a value stored later with a ts at or below its device's
 * cursor (a device replaying old readings with their own ts) is not sent; values stamped on
 * arrival, and devices sending in order, are all sent.
 *
 * A value stamped in the future (a device clock ahead) waits until its time: sending it would move
 * the cursor past every value its device reports meanwhile.
 *
 * Values older than the retention are not sent: they are counted as dropped (edge state).
 *
 * Cursor writes are batched per turn into the progress row's transaction (cloud-progress.ts).
 */
import type { MqttClient } from 'mqtt';
import type { StatementSync } from 'node:sqlite';
import type { TelemetryEntry } from '../../contract/telemetry.ts';
import type { Services } from '../../module.ts';
import { CloudPublisher, fitsBytes, fitsPacket, type UplinkDeps } from './cloud-publisher.ts';
import { deviceTopics } from '../../contract/device-api.ts';

const DAY_MS = 86_400_000;
/**
 * ts groups per message (one `{ ts, values }` each), and values read per key in one go. Each read
 * scans the staging table (docs/PERFORMANCE-FINDINGS.md, "Reading staged values"), so few large reads
 * drain a backlog faster than many small ones; a message too large for the cloud is halved.
 */
const POINTS_PER_MESSAGE = 500;
const READ_LIMIT = POINTS_PER_MESSAGE;
const READS_PER_TURN = 64;
/**
 * How long live values wait for other devices' to share their message. Each message costs a PUBACK
 * and a write of the cursors (cloud-progress.ts): at 500 ms, two a second, for up to half a second
 * more on the way to the cloud (docs/PERFORMANCE-FINDINGS.md, "Live forwarding").
 */
const LIVE_GATHER_MS = 500;
/** Live values older than this go through the history, which knows the retention. */
const LIVE_MAX_AGE_MS = DAY_MS;

export interface UplinkOptions {
  /** Messages in flight (published, PUBACK not yet received). */
  window: number;
}

interface Point {
  ts: number;
  values: Record<string, unknown>;
}

/**
 * A caught-up device's live commits for the next publish, as the bus handed them: sorting them into
 * points waits for the publish, so a commit costs a few lookups (each one is a message: 1,000 a
 * second at the bench's load; docs/PERFORMANCE-FINDINGS.md, "Live forwarding").
 */
interface Gathered {
  name: string;
  commits: (readonly TelemetryEntry[])[];
}

/** The commits' values after `pos` as points, oldest first, the values of one ts together. */
function livePoints(commits: readonly (readonly TelemetryEntry[])[], pos: number): Point[] {
  const points: Point[] = [];
  let last: Point | undefined;
  let ordered = true;
  for (const entries of commits) {
    for (const e of entries) {
      // As through the history: a value at or below what was already sent is not sent.
      if (e.ts <= pos) continue;
      if (last?.ts === e.ts) {
        last.values[e.key] = e.value;
        continue;
      }
      if (last && e.ts < last.ts) ordered = false;
      last = { ts: e.ts, values: { [e.key]: e.value } };
      points.push(last);
    }
  }
  if (ordered) return points;
  // A device sending out of order: one point per ts, later values over earlier ones.
  const byTs = new Map<number, Record<string, unknown>>();
  for (const { ts, values } of points) byTs.set(ts, Object.assign(byTs.get(ts) ?? {}, values));
  return [...byTs.entries()].sort((a, b) => a[0] - b[0]).map(([ts, values]) => ({ ts, values }));
}

interface Message {
  deviceId: string;
  lastTs: number;
  points: number;
  acked: boolean;
}

export class TelemetryUplink extends CloudPublisher {
  /** Devices whose stored telemetry may be past their read position. */
  private readonly dirty = new Set<string>();
  /** Per device: the newest ts already published on this connection (or the cursor). */
  private readonly readPos = new Map<string, number>();
  /** Per device, in publish order: messages awaiting PUBACK. */
  private readonly inFlight = new Map<string, Message[]>();
  /** Publishes awaiting PUBACK (one may carry several devices' messages). */
  private inFlightCount = 0;
  /** Live values of caught-up devices, gathered for the next publish. */
  private live = new Map<string, Gathered>();
  private liveTimer: NodeJS.Timeout | null = null;
  private readonly cursorGet: StatementSync;
  private readonly cursorSet: StatementSync;
  private readonly cursorDelete: StatementSync;
  private readonly pendingCursors = new Map<string, number>();
  /** The cursors the progress transaction is writing. */
  private writing: Map<string, number> | null = null;

  constructor(
    private readonly deps: UplinkDeps & {
      telemetry: Services['telemetry'];
      /** Where a device without a cursor starts. */
      startOf: (deviceId: string) => number;
      options: UplinkOptions;
    },
  ) {
    super(deps.log);
    this.cursorGet = deps.db.prepare('SELECT acked_ts AS ts FROM cloud_cursor WHERE id = ?');
    // Every device's cursor in one statement (a JSON object of id → ts): a live publish carries
    // every caught-up device, so each PUBACK moves a hundred cursors at the bench's load.
    this.cursorSet = deps.db.prepare(
      'INSERT INTO cloud_cursor (id, acked_ts) SELECT key, value FROM json_each(?) WHERE true ON CONFLICT(id) DO UPDATE SET acked_ts = excluded.acked_ts',
    );
    this.cursorDelete = deps.db.prepare('DELETE FROM cloud_cursor WHERE id = ?');
    deps.progress.join({
      write: () => {
        if (this.pendingCursors.size === 0) return;
        this.writing = new Map(this.pendingCursors);
        this.cursorSet.run(JSON.stringify(Object.fromEntries(this.writing)));
      },
      committed: () => {
        // A cursor that moved again while written stays pending for the next turn.
        for (const [id, ts] of this.writing ?? []) if (this.pendingCursors.get(id) === ts) this.pendingCursors.delete(id);
        this.writing = null;
      },
    });
  }

  /** New values of `deviceId` were committed: live when it is caught up, else through the history. */
  stored(deviceId: string, entries: readonly TelemetryEntry[]): void {
    if (this.gather(deviceId, entries)) return;
    this.toHistory(deviceId);
    this.schedule();
  }

  /** Takes the committed values of a caught-up device for the next live publish; false when they must be read from the history. */
  private gather(deviceId: string, entries: readonly TelemetryEntry[]): boolean {
    if (!this.client || this.dirty.has(deviceId) || this.inFlightCount >= this.deps.options.window) return false;
    const pos = this.readPos.get(deviceId);
    const name = this.deps.nameOf(deviceId);
    if (pos === undefined || name === null) return false;
    const now = Date.now();
    for (const e of entries) if (e.ts > now || e.ts < now - LIVE_MAX_AGE_MS) return false;
    const device = this.live.get(deviceId);
    if (device) device.commits.push(entries);
    else this.live.set(deviceId, { name, commits: [entries] });
    if (!this.liveTimer) {
      this.liveTimer = setTimeout(() => this.publishLive(), LIVE_GATHER_MS);
      this.liveTimer.unref();
    }
    return true;
  }

  private publishLive(): void {
    this.liveTimer = null;
    const client = this.client;
    const gathered = this.live;
    this.live = new Map();
    if (!client) return;
    const max = this.deps.maxPacketBytes();
    // Each device's points are encoded once, as `"name":[…]`, and as many devices as the cloud takes
    // share a message: the gathered values of a busy gateway outgrow one message (at 1,000 msg/s of
    // two values, 500 ms are ~40 KB; 64 KB by ~1,600 msg/s), and sending them all through the
    // history instead would read back what is in memory.
    let parts: string[] = [];
    let toHistory = false;
    let bytes = 2;
    let messages: Message[] = [];
    const send = (): void => {
      if (messages.length > 0) this.publish(client, Buffer.from(`{${parts.join(',')}}`), messages);
      parts = [];
      bytes = 2;
      messages = [];
    };
    for (const [deviceId, { name, commits }] of gathered) {
      const pos = this.readPos.get(deviceId);
      const points = pos === undefined ? [] : livePoints(commits, pos);
      if (points.length === 0) continue;
      const part = `${JSON.stringify(name)}:${JSON.stringify(points)}`;
      const partBytes = Buffer.byteLength(part) + 1;
      if (!fitsBytes(partBytes + 2, max)) {
        // Too much for one message on its own: the history road sends it in pieces.
        this.toHistory(deviceId);
        toHistory = true;
        continue;
      }
      if (!fitsBytes(bytes + partBytes, max)) send();
      parts.push(part);
      bytes += partBytes;
      messages.push({ deviceId, lastTs: points[points.length - 1]!.ts, points: points.length, acked: false });
    }
    send();
    if (toHistory) this.schedule();
  }

  /** One publish of messages (one per device); each device's cursor moves over its acknowledged prefix. */
  private publish(client: MqttClient, payload: Buffer, messages: readonly Message[]): void {
    const generation = this.generation;
    for (const message of messages) {
      this.readPos.set(message.deviceId, message.lastTs);
      const queue = this.inFlight.get(message.deviceId) ?? [];
      this.inFlight.set(message.deviceId, queue);
      queue.push(message);
    }
    this.inFlightCount++;
    client.publish(deviceTopics.gatewayTelemetry, payload, { qos: 1 }, (err) => {
      if (err || generation !== this.generation) return;
      this.inFlightCount--;
      let points = 0;
      for (const message of messages) {
        points += message.points;
        this.acked(message);
      }
      this.deps.acknowledged(points);
      this.schedule();
    });
  }

  /** Every device may have a backlog (start-up, a new configuration). */
  markAll(deviceIds: Iterable<string>): void {
    for (const id of deviceIds) this.toHistory(id);
    this.schedule();
  }

  /** The device's next values are read from the history, its gathered live ones too (they are stored): never both. */
  private toHistory(deviceId: string): void {
    this.live.delete(deviceId);
    this.dirty.add(deviceId);
  }

  forget(deviceId: string): void {
    this.live.delete(deviceId);
    this.dirty.delete(deviceId);
    this.readPos.delete(deviceId);
    this.pendingCursors.delete(deviceId);
    this.cursorDelete.run(deviceId);
  }

  protected connectionLost(): void {
    // What was in flight is read again from the cursor on the next connection.
    for (const deviceId of this.inFlight.keys()) this.dirty.add(deviceId);
    // Gathered live values are in the history too: read them from there next time.
    for (const deviceId of this.live.keys()) this.dirty.add(deviceId);
    this.live.clear();
    if (this.liveTimer) clearTimeout(this.liveTimer);
    this.liveTimer = null;
    this.inFlight.clear();
    this.inFlightCount = 0;
    this.readPos.clear();
  }

  /** The acknowledged position of a device (durable), or where it starts. */
  cursor(deviceId: string): number {
    const pending = this.pendingCursors.get(deviceId);
    if (pending !== undefined) return pending;
    const row = this.cursorGet.get(deviceId) as { ts: number } | undefined;
    return row?.ts ?? this.deps.startOf(deviceId) - 1;
  }

  /** Devices that may have values the cloud has not acknowledged: no other device has a backlog. */
  pendingDevices(): Set<string> {
    return new Set([...this.dirty, ...this.inFlight.keys()]);
  }

  /** Values waiting for the cloud on these devices (the most of any one key per device), and the oldest ts. */
  backlog(deviceIds: Iterable<string>): { messages: number; oldestTs?: number } {
    let messages = 0;
    let oldestTs: number | undefined;
    const now = Date.now();
    for (const deviceId of deviceIds) {
      const from = this.cursor(deviceId) + 1;
      const keys = this.deps.telemetry.keys(deviceId);
      if (keys.length === 0) continue;
      const counts = this.deps.telemetry.timeseries(deviceId, { keys: keys.join(','), startTs: from, endTs: now + 1, agg: 'COUNT', interval: now + 1 - from, limit: 1 });
      let deviceCount = 0;
      for (const key of keys) deviceCount = Math.max(deviceCount, Number(counts[key]?.[0]?.value ?? 0));
      if (deviceCount === 0) continue;
      messages += deviceCount;
      const first = this.deps.telemetry.timeseries(deviceId, { keys: keys.join(','), startTs: from, endTs: now + 1, limit: 1, orderBy: 'ASC' });
      for (const key of keys) {
        const ts = first[key]?.[0]?.ts;
        if (ts !== undefined && (oldestTs === undefined || ts < oldestTs)) oldestTs = ts;
      }
    }
    return oldestTs === undefined ? { messages } : { messages, oldestTs };
  }

  protected pump(client: MqttClient): void {
    const { window } = this.deps.options;
    // Each device looked at is a read of its history: after READS_PER_TURN the next turn goes on,
    // so a start-up with every device marked does not hold the event loop for seconds.
    let reads = 0;
    // Round robin: one message per dirty device per round, so one chatty device cannot starve the rest.
    while (this.inFlightCount < window && this.dirty.size > 0 && reads < READS_PER_TURN) {
      let sent = 0;
      for (const deviceId of [...this.dirty]) {
        if (this.inFlightCount >= window || reads >= READS_PER_TURN) break;
        reads++;
        if (this.sendNext(client, deviceId)) sent++;
        else this.dirty.delete(deviceId);
      }
      if (sent === 0 && reads < READS_PER_TURN) break;
    }
    if (reads >= READS_PER_TURN && this.dirty.size > 0) this.schedule();
  }

  /** Publishes the device's next message; false when it has nothing more to send. */
  private sendNext(client: MqttClient, deviceId: string): boolean {
    const name = this.deps.nameOf(deviceId);
    if (name === null) return false;
    const from = (this.readPos.get(deviceId) ?? this.cursor(deviceId)) + 1;
    let points = this.read(deviceId, from);
    if (points.length === 0) {
      // Caught up: its next commits can go live from here.
      this.readPos.set(deviceId, from - 1);
      return false;
    }
    // Read once there is something to send: most looks at a device (each live commit) find nothing.
    const retentionStart = Date.now() - this.deps.telemetry.settings().telemetryRetentionDays * DAY_MS;
    const max = this.deps.maxPacketBytes();
    let payload = Buffer.from(JSON.stringify({ [name]: points }));
    while (!fitsPacket(payload, max) && points.length > 1) {
      points = points.slice(0, Math.ceil(points.length / 2));
      payload = Buffer.from(JSON.stringify({ [name]: points }));
    }
    const fresh = points.filter((p) => p.ts >= retentionStart);
    const stale = points.length - fresh.length;
    if (stale > 0) {
      this.deps.progress.countDropped(stale);
      this.deps.log.warn({ deviceId, values: stale }, 'cloud backlog older than the retention dropped');
    }
    const lastTs = points[points.length - 1]!.ts;
    const message: Message = { deviceId, lastTs, points: fresh.length, acked: false };
    if (fresh.length === 0) return this.skipped(message);
    if (stale > 0) payload = Buffer.from(JSON.stringify({ [name]: fresh }));
    if (!fitsPacket(payload, max)) {
      // One ts group cannot be smaller than itself: skipped and counted, never retried forever.
      this.deps.progress.countDropped(fresh.length);
      this.deps.log.warn({ deviceId, bytes: payload.length, max }, 'cloud telemetry message larger than the cloud accepts: dropped');
      return this.skipped(message);
    }
    this.publish(client, payload, [message]);
    return true;
  }

  /** A message not sent (dropped values): it counts as acknowledged, in its place in the device's order. */
  private skipped(message: Message): true {
    this.readPos.set(message.deviceId, message.lastTs);
    const queue = this.inFlight.get(message.deviceId) ?? [];
    this.inFlight.set(message.deviceId, queue);
    queue.push(message);
    this.acked(message);
    return true;
  }

  /** The device's stored values after `from`, grouped by ts, a message's worth, oldest first. */
  private read(deviceId: string, from: number): Point[] {
    const keys = this.deps.telemetry.keys(deviceId);
    if (keys.length === 0) return [];
    const series = this.deps.telemetry.timeseries(deviceId, {
      keys: keys.join(','),
      startTs: from,
      endTs: Date.now() + 1,
      limit: READ_LIMIT,
      orderBy: 'ASC',
      agg: 'NONE',
    });
    // A key that filled its limit may have more after its last value: stop there for every key.
    let cap = Infinity;
    for (const key of keys) {
      const values = series[key] ?? [];
      if (values.length >= READ_LIMIT) cap = Math.min(cap, values[values.length - 1]!.ts);
    }
    const byTs = new Map<number, Record<string, unknown>>();
    for (const key of keys) {
      for (const { ts, value } of series[key] ?? []) {
        if (ts > cap) break;
        let values = byTs.get(ts);
        if (!values) byTs.set(ts, (values = {}));
        values[key] = value;
      }
    }
    return [...byTs.entries()]
      .sort((a, b) => a[0] - b[0])
      .slice(0, POINTS_PER_MESSAGE)
      .map(([ts, values]) => ({ ts, values }));
  }

  private acked(message: Message): void {
    message.acked = true;
    const queue = this.inFlight.get(message.deviceId);
    if (!queue) return;
    let advanced: number | null = null;
    while (queue.length > 0 && queue[0]!.acked) advanced = queue.shift()!.lastTs;
    if (queue.length === 0) this.inFlight.delete(message.deviceId);
    if (advanced !== null) this.saveCursor(message.deviceId, advanced);
  }

  private saveCursor(deviceId: string, ts: number): void {
    this.pendingCursors.set(deviceId, ts);
    this.deps.progress.changed();
  }
}
