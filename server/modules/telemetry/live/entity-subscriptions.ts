/**
 * ENTITY_DATA and ENTITY_COUNT (server/contract/realtime.ts): devices named by a ThingsBoard entity
 * filter (server/lib/entity-filters.ts) with their fields, latest values, attributes and series.
 */
import type {
  EntityData,
  EntityDataUpdate,
  EntityFilter,
  EntityHistoryCmd,
  EntityKey,
  EntityTimeseriesData,
  EntityTsCmd,
  TsValue,
} from '../../../contract/realtime.ts';
import { WS_MAX_FILTERED_ENTITIES, WsErrorCode } from '../../../contract/realtime.ts';
import type { AttributeValue, TelemetryEntry } from '../../../contract/telemetry.ts';
import { filteredIds } from '../../../lib/entity-filters.ts';
import { notFound } from '../../../lib/field-errors.ts';
import { OncePerTurn } from '../../../lib/once-per-turn.ts';
import { DeviceSubscription, type SubscriptionContext } from './device-subscriptions.ts';
import { entityHistory, EntityTsFollower } from './entity-timeseries.ts';
import { serverAttributes } from './live-data.ts';

/** An ENTITY_DATA command's time series: `tsCmd` (followed) and `historyCmd` (once). */
export interface EntitySeriesCmds {
  tsCmd?: EntityTsCmd;
  historyCmd?: EntityHistoryCmd;
}

/** What an ENTITY_DATA command asks for. */
export interface EntityQuery {
  filter: EntityFilter;
  fields: readonly EntityKey[];
  latest: readonly EntityKey[];
  series: EntitySeriesCmds;
}

/** ENTITY_DATA: latest fields, telemetry and attributes of the listed devices, then their changes. */
export class EntityDataSubscription extends DeviceSubscription {
  readonly deviceIds: readonly string[];
  private readonly fields: string[];
  private latest: EntityKey[];
  /** Devices the filter matched beyond those followed (deviceType, entityName). */
  private readonly unlisted: number;
  private series: EntitySeriesCmds;
  private follower: EntityTsFollower | null;

  private readonly filter: EntityFilter;

  constructor(context: SubscriptionContext, { filter, fields, latest, series }: EntityQuery) {
    super(context);
    this.filter = filter;
    const { data } = context;
    const matched = filteredIds(filter, data.devices);
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
export class EntityCountSubscription extends DeviceSubscription {
  readonly deviceIds: readonly string[] = [];
  override readonly followsDeviceSet = true;
  private last = -1;
  private readonly recount = new OncePerTurn(() => this.sendCount());

  constructor(
    context: SubscriptionContext,
    private readonly filter: EntityFilter,
  ) {
    super(context);
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
    const matched = filteredIds(this.filter, this.data.devices, 0);
    const count =
      this.filter.type === 'singleEntity' || this.filter.type === 'entityList'
        ? matched!.ids.filter((id) => this.data.deviceExists(id)).length
        : (matched?.total ?? this.data.deviceCount());
    if (count === this.last) return;
    this.last = count;
    this.sink.send({ cmdId: this.cmdId, errorCode: WsErrorCode.NO_ERROR, errorMsg: null, count, cmdUpdateType: 'COUNT_DATA' });
  }
}
