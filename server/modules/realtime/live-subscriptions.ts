/**
 * One live subscription per command: it sends its first answer when started and later updates
 * when the hub hands it the events of the devices it follows (server/contract/realtime.ts says
 * what each command answers).
 */
import type { Command } from '../../contract/command.ts';
import type {
  AttributesCmd,
  EntityData,
  EntityDataUpdate,
  EntityFilter,
  EntityHistoryCmd,
  EntityKey,
  EntityTimeseriesData,
  EntityTsCmd,
  TelemetryUpdate,
  TimeseriesCmd,
  TsData,
  TsValue,
  WsUpdate,
} from '../../contract/realtime.ts';
import { WS_MAX_FILTERED_ENTITIES, WsErrorCode } from '../../contract/realtime.ts';
import { notFound } from '../../lib/field-errors.ts';
import type { AttributeValue, TelemetryEntry } from '../../contract/telemetry.ts';
import type { Aggregation } from '../../contract/telemetry.ts';
import { matchDevices, type FilterMatch } from './entity-filters.ts';
import { entityHistory, EntityTsFollower } from './entity-timeseries.ts';
import { OncePerTurn } from './once-per-turn.ts';
import { entriesToTsData, latestTs, serverAttributes, toTsData, type LiveData } from './live-data.ts';

/** Where a subscription's answers go: the socket's session. */
export interface LiveSink {
  send(update: WsUpdate): void;
}

/** `a,b` or `['a','b']` → the key list; empty means every key. */
export function keyList(keys: string | readonly string[] | undefined): string[] | null {
  const list = (typeof keys === 'string' ? keys.split(',') : (keys ?? [])).map((k) => k.trim()).filter(Boolean);
  return list.length ? [...new Set(list)] : null;
}

export abstract class Subscription {
  /** Devices whose telemetry and state this subscription follows. */
  abstract readonly deviceIds: readonly string[];
  /** True when it follows devices being created or deleted (counts). */
  readonly followsDeviceSet: boolean = false;
  /** True when it follows the cloud link's state (EDGE_STATE). */
  readonly followsEdgeState: boolean = false;

  constructor(
    readonly cmdId: number,
    protected readonly sink: LiveSink,
    protected readonly data: LiveData,
  ) {}

  /** Sends the first answer; throws AppError when the command cannot be served. */
  abstract start(): void;
  telemetry(_deviceId: string, _entries: readonly TelemetryEntry[]): void {}
  stateChanged(_deviceId: string, _state: 'ONLINE' | 'OFFLINE', _ts: number): void {}
  deviceUpdated(_deviceId: string): void {}
  commandChanged(_deviceId: string, _command: Command): void {}
  /** Client or shared attributes changed (a deleted one comes as ts 0 and "", as ThingsBoard sends it). */
  attributesChanged(_deviceId: string, _scope: 'CLIENT_SCOPE' | 'SHARED_SCOPE', _values: readonly AttributeValue[]): void {}
  devicesChanged(): void {}
  edgeStateChanged(): void {}
  close(): void {}
}

function telemetryUpdate(cmdId: number, data: TsData, cmdUpdateType: TelemetryUpdate['cmdUpdateType']): TelemetryUpdate {
  return { subscriptionId: cmdId, cmdId, errorCode: WsErrorCode.NO_ERROR, errorMsg: null, data, latestValues: latestTs(data), cmdUpdateType };
}

/** A subscription to one device (`entityId`) and some of its keys (none named: all). */
abstract class DeviceKeysSubscription extends Subscription {
  readonly deviceIds: readonly string[];
  protected keys: Set<string> | null;

  constructor(cmdId: number, sink: LiveSink, data: LiveData, cmd: { entityId?: string; keys?: string | string[] }) {
    super(cmdId, sink, data);
    if (!cmd.entityId) throw notFound();
    this.deviceIds = [cmd.entityId];
    const keys = keyList(cmd.keys);
    this.keys = keys && new Set(keys);
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
    cmdId: number,
    sink: LiveSink,
    data: LiveData,
    private readonly cmd: TimeseriesCmd,
  ) {
    super(cmdId, sink, data, cmd);
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
      this.sink.send(telemetryUpdate(this.cmdId, this.data.latest(deviceId, this.keys && [...this.keys]), 'TIMESERIES'));
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
    this.sink.send(telemetryUpdate(this.cmdId, data, 'TIMESERIES'));
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
    if (Object.keys(data).length) this.sink.send(telemetryUpdate(this.cmdId, data, 'TIMESERIES'));
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
    if (Object.keys(data).length) this.sink.send(telemetryUpdate(this.cmdId, data, 'TIMESERIES'));
  }
}

/** ATTRIBUTES: the device's attributes, then server attribute changes (its state). */
export class AttributesSubscription extends DeviceKeysSubscription {
  constructor(
    cmdId: number,
    sink: LiveSink,
    data: LiveData,
    private readonly cmd: AttributesCmd,
  ) {
    super(cmdId, sink, data, cmd);
  }

  start(): void {
    const device = this.data.device(this.deviceIds[0]!);
    this.sink.send(telemetryUpdate(this.cmdId, this.data.attributes(device, this.cmd.scope ?? null, this.keys), 'ATTRIBUTES'));
  }

  override attributesChanged(_deviceId: string, scope: 'CLIENT_SCOPE' | 'SHARED_SCOPE', values: readonly AttributeValue[]): void {
    if (this.cmd.scope && this.cmd.scope !== scope) return;
    const data: TsData = {};
    for (const v of values) {
      if (!this.keys || this.keys.has(v.key)) data[v.key] = v.flag ? [[v.lastUpdateTs, v.value, v.flag]] : [[v.lastUpdateTs, v.value]];
    }
    if (Object.keys(data).length) this.sink.send(telemetryUpdate(this.cmdId, data, 'ATTRIBUTES'));
  }

  override stateChanged(_deviceId: string, state: 'ONLINE' | 'OFFLINE', ts: number): void {
    if (this.cmd.scope && this.cmd.scope !== 'SERVER_SCOPE') return;
    const data: TsData = {};
    for (const [key, v] of Object.entries(serverAttributes(state, ts))) {
      // Only the time of the change that happened is news; the other stays as it was.
      if (v.value === null) continue;
      if (!this.keys || this.keys.has(key)) data[key] = [[v.ts, v.value]];
    }
    if (Object.keys(data).length) this.sink.send(telemetryUpdate(this.cmdId, data, 'ATTRIBUTES'));
  }
}

/** The device ids an entity filter names, at most `max` of the matches (null: every device). */
export function filteredIds(filter: EntityFilter, data: LiveData, max = WS_MAX_FILTERED_ENTITIES): FilterMatch | null {
  if (filter.type === 'singleEntity') return { ids: [filter.singleEntity.id], total: 1 };
  if (filter.type === 'entityList') {
    const ids = [...new Set(filter.entityList)];
    return { ids, total: ids.length };
  }
  if (filter.type === 'deviceType' || filter.type === 'entityName') return matchDevices(data.devices, filter, max);
  return null;
}

/** An ENTITY_DATA command's time series: `tsCmd` (followed) and `historyCmd` (once). */
export interface EntitySeriesCmds {
  tsCmd?: EntityTsCmd;
  historyCmd?: EntityHistoryCmd;
}

/** ENTITY_DATA: latest fields, telemetry and attributes of the listed devices, then their changes. */
export class EntityDataSubscription extends Subscription {
  readonly deviceIds: readonly string[];
  private readonly fields: string[];
  private latest: EntityKey[];
  /** Devices the filter matched beyond those followed (deviceType, entityName). */
  private readonly unlisted: number;
  private series: EntitySeriesCmds;
  private follower: EntityTsFollower | null;

  constructor(
    cmdId: number,
    sink: LiveSink,
    data: LiveData,
    private readonly filter: EntityFilter,
    fields: readonly EntityKey[],
    latest: readonly EntityKey[],
    series: EntitySeriesCmds = {},
  ) {
    super(cmdId, sink, data);
    const matched = filteredIds(filter, data);
    this.deviceIds = matched?.ids ?? [];
    this.unlisted = matched ? matched.total - matched.ids.length : 0;
    this.fields = fields.filter((k) => k.type === 'ENTITY_FIELD').map((k) => k.key);
    this.latest = [...latest];
    this.series = series;
    this.follower = series.tsCmd ? new EntityTsFollower(series.tsCmd) : null;
  }

  start(): void {
    const entities: EntityData[] = [];
    for (const id of this.deviceIds) {
      if (!this.data.deviceExists(id)) {
        if (this.filter.type === 'singleEntity') throw notFound();
        continue;
      }
      const entity = this.data.entity(this.data.device(id), this.fields, this.latest);
      entity.timeseries = this.history(id);
      entities.push(entity);
    }
    const total = entities.length + this.unlisted;
    const update: EntityDataUpdate = {
      cmdId: this.cmdId,
      errorCode: WsErrorCode.NO_ERROR,
      errorMsg: null,
      data: { data: entities, totalPages: Math.max(1, Math.ceil(total / WS_MAX_FILTERED_ENTITIES)), totalElements: total, hasNext: this.unlisted > 0 },
      update: null,
      cmdUpdateType: 'ENTITY_DATA',
    };
    this.sink.send(update);
  }

  /** ThingsBoard's `latestCmd`: follow more keys, answering their current values at once. */
  addLatest(keys: readonly EntityKey[]): void {
    const added = keys.filter((k) => !this.latest.some((l) => l.type === k.type && l.key === k.key));
    if (!added.length) return;
    this.latest = [...this.latest, ...added];
    const update = this.deviceIds
      .filter((id) => this.data.deviceExists(id))
      .map((id) => {
        const entity = this.data.entity(this.data.device(id), [], added);
        delete entity.latest.ENTITY_FIELD;
        return entity;
      });
    if (update.length) this.sendUpdate(update);
  }

  /**
   * A `tsCmd` or `historyCmd` sent again on this cmdId without a query (ThingsBoard's UI does so
   * when the time window moves): the new history in an update, and the new `tsCmd` followed.
   */
  replaceSeries(series: EntitySeriesCmds): void {
    this.series = series;
    this.follower = series.tsCmd ? new EntityTsFollower(series.tsCmd) : null;
    const update = this.deviceIds
      .filter((id) => this.data.deviceExists(id))
      .map((id): EntityTimeseriesData => ({ entityId: { entityType: 'DEVICE', id }, latest: null, timeseries: this.history(id) }));
    if (update.length) this.sink.send({ cmdId: this.cmdId, errorCode: WsErrorCode.NO_ERROR, errorMsg: null, data: null, update, cmdUpdateType: 'ENTITY_DATA' });
  }

  /** The `historyCmd` and `tsCmd` points of one device, merged per key. */
  private history(deviceId: string): EntityData['timeseries'] {
    const result: EntityData['timeseries'] = {};
    for (const cmd of [this.series.historyCmd, this.series.tsCmd]) {
      if (!cmd) continue;
      for (const [key, points] of Object.entries(entityHistory(this.data.telemetry, deviceId, cmd))) result[key] = [...(result[key] ?? []), ...points];
    }
    return result;
  }

  override telemetry(deviceId: string, entries: readonly TelemetryEntry[]): void {
    const news = this.follower?.update(deviceId, entries);
    if (news) this.sink.send({ cmdId: this.cmdId, errorCode: WsErrorCode.NO_ERROR, errorMsg: null, data: null, update: [news], cmdUpdateType: 'ENTITY_DATA' });
    const wanted = new Set(this.latest.filter((k) => k.type === 'TIME_SERIES').map((k) => k.key));
    if (!wanted.size) return;
    const values: Record<string, TsValue> = {};
    for (const e of entries) {
      if (!wanted.has(e.key)) continue;
      const seen = values[e.key];
      if (!seen || seen.ts <= e.ts) values[e.key] = { ts: e.ts, value: e.value };
    }
    if (Object.keys(values).length) this.sendUpdate([this.entityOf(deviceId, { TIME_SERIES: values })]);
  }

  override attributesChanged(deviceId: string, scope: 'CLIENT_SCOPE' | 'SHARED_SCOPE', values: readonly AttributeValue[]): void {
    const scoped = scope === 'CLIENT_SCOPE' ? 'CLIENT_ATTRIBUTE' : 'SHARED_ATTRIBUTE';
    const latest: EntityData['latest'] = {};
    for (const { type, key } of this.latest) {
      if (type !== scoped && type !== 'ATTRIBUTE') continue;
      const v = values.find((a) => a.key === key);
      if (v) (latest[type] ??= {})[key] = { ts: v.lastUpdateTs, value: v.value };
    }
    if (Object.keys(latest).length) this.sendUpdate([this.entityOf(deviceId, latest)]);
  }

  override stateChanged(deviceId: string, state: 'ONLINE' | 'OFFLINE', ts: number): void {
    const latest: EntityData['latest'] = { ENTITY_FIELD: { deviceState: { ts, value: state } } };
    const attributes = serverAttributes(state, ts);
    for (const { type, key } of this.latest) {
      const value = attributes[key];
      if (value && value.value !== null && (type === 'ATTRIBUTE' || type === 'SERVER_ATTRIBUTE')) (latest[type] ??= {})[key] = value;
    }
    this.sendUpdate([this.entityOf(deviceId, latest)]);
  }

  override deviceUpdated(deviceId: string): void {
    if (!this.data.deviceExists(deviceId)) return;
    const entity = this.data.entity(this.data.device(deviceId), this.fields, []);
    this.sendUpdate([this.entityOf(deviceId, { ENTITY_FIELD: entity.latest.ENTITY_FIELD ?? {} })]);
  }

  private entityOf(deviceId: string, latest: EntityData['latest']): EntityData {
    return { entityId: { entityType: 'DEVICE', id: deviceId }, latest, timeseries: {} };
  }

  private sendUpdate(update: EntityData[]): void {
    this.sink.send({ cmdId: this.cmdId, errorCode: WsErrorCode.NO_ERROR, errorMsg: null, data: null, update, cmdUpdateType: 'ENTITY_DATA' });
  }
}

/** ENTITY_COUNT: how many devices the filter matches, again after devices come or go. */
export class EntityCountSubscription extends Subscription {
  readonly deviceIds: readonly string[] = [];
  override readonly followsDeviceSet = true;
  private last = -1;
  private readonly recount = new OncePerTurn(() => this.sendCount());

  constructor(
    cmdId: number,
    sink: LiveSink,
    data: LiveData,
    private readonly filter: EntityFilter,
  ) {
    super(cmdId, sink, data);
  }

  start(): void {
    this.sendCount();
  }

  override devicesChanged(): void {
    // An import announces thousands of devices in one go: count once after them.
    this.recount.request();
  }

  override close(): void {
    this.recount.cancel();
  }

  private sendCount(): void {
    const matched = filteredIds(this.filter, this.data, 0);
    const count =
      this.filter.type === 'singleEntity' || this.filter.type === 'entityList'
        ? matched!.ids.filter((id) => this.data.deviceExists(id)).length
        : (matched?.total ?? this.data.deviceCount());
    if (count === this.last) return;
    this.last = count;
    this.sink.send({ cmdId: this.cmdId, errorCode: WsErrorCode.NO_ERROR, errorMsg: null, count, cmdUpdateType: 'COUNT_DATA' });
  }
}
