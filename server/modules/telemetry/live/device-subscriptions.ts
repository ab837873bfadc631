/**
 * The telemetry module's live subscriptions of devices (server/contract/realtime.ts says what each
 * command answers): each sends its first answer when started, then updates when telemetry-live.ts
 * hands it the events of the devices it follows. TIMESERIES and ATTRIBUTES here, ENTITY_DATA and
 * ENTITY_COUNT in entity-subscriptions.ts.
 */
import type { AttributesCmd, TelemetryUpdate, TimeseriesCmd, TsData, WsUpdate } from '../../../contract/realtime.ts';
import { WsErrorCode } from '../../../contract/realtime.ts';
import { notFound } from '../../../lib/field-errors.ts';
import type { AttributeValue, TelemetryEntry } from '../../../contract/telemetry.ts';
import type { Aggregation } from '../../../contract/telemetry.ts';
import { entriesToTsData, latestTs, serverAttributes, textData, toTsData, type LiveData } from './live-data.ts';

/** Where a subscription's answers go: the socket's session (LiveRequest.send). */
export interface LiveSink {
  send(update: WsUpdate): void;
}

/** `a,b` or `['a','b']` → the key list; empty means every key. */
export function keyList(keys: string | readonly string[] | undefined): string[] | null {
  const list = (typeof keys === 'string' ? keys.split(',') : (keys ?? [])).map((k) => k.trim()).filter(Boolean);
  return list.length ? [...new Set(list)] : null;
}

/** What every device subscription is made with: its cmdId, where its answers go and what it reads. */
export interface SubscriptionContext {
  cmdId: number;
  sink: LiveSink;
  data: LiveData;
}

export abstract class DeviceSubscription {
  /** Devices whose telemetry and state this subscription follows. */
  abstract readonly deviceIds: readonly string[];
  /** True when it follows devices being created or deleted (counts). */
  readonly followsDeviceSet: boolean = false;

  readonly cmdId: number;
  protected readonly sink: LiveSink;
  protected readonly data: LiveData;

  constructor({ cmdId, sink, data }: SubscriptionContext) {
    this.cmdId = cmdId;
    this.sink = sink;
    this.data = data;
  }

  /** Sends the first answer; throws AppError when the command cannot be served. */
  abstract start(): void;
  telemetry(_deviceId: string, _entries: readonly TelemetryEntry[]): void {}
  stateChanged(_deviceId: string, _state: 'ONLINE' | 'OFFLINE', _ts: number): void {}
  deviceUpdated(_deviceId: string): void {}
  /** Client or shared attributes changed (a deleted one comes as ts 0 and "", as ThingsBoard sends it). */
  attributesChanged(_deviceId: string, _scope: 'CLIENT_SCOPE' | 'SHARED_SCOPE', _values: readonly AttributeValue[]): void {}
  devicesChanged(): void {}
  close(): void {}
}

/** `data` as ThingsBoard's websocket sends it (values as text) unless `strict` keeps their JSON type. */
export function telemetryUpdate(cmdId: number, data: TsData, cmdUpdateType: TelemetryUpdate['cmdUpdateType'], strict = true): TelemetryUpdate {
  const sent = strict ? data : textData(data);
  return { subscriptionId: cmdId, cmdId, errorCode: WsErrorCode.NO_ERROR, errorMsg: null, data: sent, latestValues: latestTs(sent), cmdUpdateType };
}

/** A subscription to one device (`entityId`) and some of its keys (none named: all). */
abstract class DeviceKeysSubscription extends DeviceSubscription {
  readonly deviceIds: readonly string[];
  protected keys: Set<string> | null;
  private readonly strict: boolean;

  constructor(context: SubscriptionContext, cmd: { entityId?: string; keys?: string | string[]; useStrictDataTypes?: boolean }) {
    super(context);
    this.strict = cmd.useStrictDataTypes === true;
    if (!cmd.entityId) throw notFound();
    this.deviceIds = [cmd.entityId];
    const keys = keyList(cmd.keys);
    this.keys = keys && new Set(keys);
  }

  protected update(data: TsData, cmdUpdateType: 'TIMESERIES' | 'ATTRIBUTES'): TelemetryUpdate {
    return telemetryUpdate(this.cmdId, data, cmdUpdateType, this.strict);
  }
}

/**
 * TIMESERIES: latest values, or a window of history (raw or aggregated), then what arrives.
 * Aggregated windows recompute the buckets new values fall into, once per turn of the event loop.
 */
export class TimeseriesSubscription extends DeviceKeysSubscription {
  /** A window of history first (else the latest values). */
  private readonly windowed: boolean;
  private readonly agg: { agg: Exclude<Aggregation, 'NONE'>; interval: number; startTs: number } | null;
  private dirtyBuckets = new Set<number>();
  private recompute: NodeJS.Immediate | null = null;

  constructor(
    context: SubscriptionContext,
    private readonly cmd: TimeseriesCmd,
  ) {
    super(context, cmd);
    const windowed = cmd.scope !== 'LATEST_TELEMETRY' && (cmd.startTs !== undefined || cmd.timeWindow !== undefined);
    const agg = cmd.agg ?? 'NONE';
    this.agg =
      windowed && agg !== 'NONE'
        ? { agg, interval: cmd.interval ?? 0, startTs: cmd.startTs ?? Date.now() - (cmd.timeWindow ?? 0) }
        : null;
    this.windowed = windowed;
  }

  start(): void {
    const deviceId = this.deviceIds[0]!;
    if (!this.windowed) {
      this.sink.send(this.update(this.data.latest(deviceId, this.keys && [...this.keys]), 'TIMESERIES'));
      return;
    }
    const now = Date.now();
    const startTs = this.agg?.startTs ?? this.cmd.startTs ?? now - (this.cmd.timeWindow ?? 0);
    const endTs = this.cmd.startTs !== undefined && this.cmd.timeWindow !== undefined ? startTs + this.cmd.timeWindow : now + 1;
    // A window needs its keys named; none named means every key the device has.
    const keys = this.keys ? [...this.keys] : this.data.telemetry.keys(deviceId);
    if (this.agg) this.keys = new Set(keys);
    const data =
      keys.length === 0
        ? {}
        : toTsData(
            this.data.telemetry.timeseries(deviceId, {
              keys: keys.join(','),
              startTs,
              endTs,
              agg: this.cmd.agg ?? 'NONE',
              interval: this.cmd.interval,
              limit: this.cmd.limit,
              // Newest first, so a limit keeps the most recent points (sent oldest first).
              orderBy: 'DESC',
            }),
          );
    this.sink.send(this.update(data, 'TIMESERIES'));
  }

  override telemetry(_deviceId: string, entries: readonly TelemetryEntry[]): void {
    if (this.agg) {
      const { startTs, interval } = this.agg;
      for (const e of entries) {
        if ((!this.keys || this.keys.has(e.key)) && e.ts >= startTs) {
          this.dirtyBuckets.add(startTs + Math.floor((e.ts - startTs) / interval) * interval);
        }
      }
      if (this.dirtyBuckets.size) this.recompute ??= setImmediate(() => this.sendBuckets());
      return;
    }
    const data = entriesToTsData(entries, this.keys);
    if (Object.keys(data).length) this.sink.send(this.update(data, 'TIMESERIES'));
  }

  override close(): void {
    if (this.recompute) clearImmediate(this.recompute);
    this.recompute = null;
  }

  private sendBuckets(): void {
    this.recompute = null;
    if (!this.agg || !this.keys?.size || !this.dirtyBuckets.size) return;
    const buckets = [...this.dirtyBuckets];
    this.dirtyBuckets = new Set();
    const from = Math.min(...buckets);
    const to = Math.max(...buckets) + this.agg.interval;
    const points = this.data.telemetry.timeseries(this.deviceIds[0]!, {
      keys: [...this.keys].join(','),
      startTs: from,
      endTs: to,
      agg: this.agg.agg,
      interval: this.agg.interval,
      orderBy: 'ASC',
    });
    const data = toTsData(points);
    if (Object.keys(data).length) this.sink.send(this.update(data, 'TIMESERIES'));
  }
}

/** ATTRIBUTES: the device's attributes, then server attribute changes (its state). */
export class AttributesSubscription extends DeviceKeysSubscription {
  constructor(
    context: SubscriptionContext,
    private readonly cmd: AttributesCmd,
  ) {
    super(context, cmd);
  }

  start(): void {
    const device = this.data.device(this.deviceIds[0]!);
    this.sink.send(this.update(this.data.attributes(device, this.cmd.scope ?? null, this.keys), 'ATTRIBUTES'));
  }

  override attributesChanged(_deviceId: string, scope: 'CLIENT_SCOPE' | 'SHARED_SCOPE', values: readonly AttributeValue[]): void {
    if (this.cmd.scope && this.cmd.scope !== scope) return;
    const data: TsData = {};
    for (const v of values) {
      if (!this.keys || this.keys.has(v.key)) data[v.key] = v.flag ? [[v.lastUpdateTs, v.value, v.flag]] : [[v.lastUpdateTs, v.value]];
    }
    if (Object.keys(data).length) this.sink.send(this.update(data, 'ATTRIBUTES'));
  }

  override stateChanged(_deviceId: string, state: 'ONLINE' | 'OFFLINE', ts: number): void {
    if (this.cmd.scope && this.cmd.scope !== 'SERVER_SCOPE') return;
    const data: TsData = {};
    for (const [key, v] of Object.entries(serverAttributes(state, ts))) {
      // Only the time of the change that happened is news; the other stays as it was.
      if (v.value === null) continue;
      if (!this.keys || this.keys.has(key)) data[key] = [[v.ts, v.value]];
    }
    if (Object.keys(data).length) this.sink.send(this.update(data, 'ATTRIBUTES'));
  }
}
