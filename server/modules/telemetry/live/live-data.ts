/**
 * What the telemetry module's live commands read, in their wire shapes: telemetry through the
 * telemetry service (no SQL of its own), devices and their state through the device reads of the
 * subscriber's scope (server/lib/device-scope.ts), server-side attributes derived from the
 * device's state. A device outside the scope is answered as one that does not exist.
 */
import type { Device } from '../../../contract/device.ts';
import type { EntityData, EntityKey, TsData, TsValue } from '../../../contract/realtime.ts';
import type { Aggregation, TimeseriesOrder } from '../../../contract/telemetry.ts';
import type { TelemetryEntry } from '../../../contract/telemetry.ts';
import type { ScopedDevices } from '../../../lib/device-scope.ts';
import { notFound } from '../../../lib/field-errors.ts';

export interface TimeseriesRequest {
  keys?: string;
  startTs?: number;
  endTs?: number;
  interval?: number;
  agg?: Aggregation;
  limit?: number;
  orderBy?: TimeseriesOrder;
}

export interface StoredPoint {
  ts: number;
  value: unknown;
  flag?: string;
}

/** The telemetry service's reads (server/modules/telemetry/telemetry-service.ts). */
export interface LiveTelemetry {
  /** Latest values without startTs, else history; throws AppError for an unknown device or a bad query. */
  timeseries(deviceId: string, query: TimeseriesRequest): Record<string, StoredPoint[]>;
  keys(deviceId: string): string[];
  attributesOf(deviceId: string, keysText: string | undefined): { key: string; value: unknown; lastUpdateTs: number; flag?: string }[];
}

/** The shared attributes' reads (server/modules/telemetry/shared-attribute-service.ts). */
export interface LiveSharedAttributes {
  values(deviceId: string, scope: 'SHARED_SCOPE', keys: string[] | null): { key: string; value: unknown; lastUpdateTs: number }[];
}

/** Device attributes the server keeps (ThingsBoard's SERVER_SCOPE), derived from the state. */
export const serverAttributeKeys = ['active', 'deviceState', 'lastOnlineTime', 'lastOfflineTime'] as const;

/** ENTITY_FIELD keys a DEVICE entity answers. */
const entityFields: Record<string, (d: Device) => unknown> = {
  name: (d) => d.name,
  alias: (d) => d.alias,
  label: (d) => d.label,
  deviceType: (d) => d.deviceType,
  deviceProfileId: (d) => d.deviceProfileId,
  productName: (d) => d.productName,
  // ThingsBoard's `type` of a device is its profile's name.
  type: (d) => d.productName,
  transportType: (d) => d.transportType,
  organizationId: (d) => d.organizationId,
  createdTime: (d) => d.createdTime,
  deviceState: (d) => d.deviceState,
};

export function toTsData(points: Record<string, StoredPoint[]>): TsData {
  const data: TsData = {};
  for (const [key, list] of Object.entries(points)) {
    data[key] = [...list].sort((a, b) => a.ts - b.ts).map((p) => (p.flag ? [p.ts, p.value, p.flag] : [p.ts, p.value]));
  }
  return data;
}

/** A value as ThingsBoard's TsValue carries it: text, JSON for objects and arrays. */
export function valueText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** The points of `data` with their values as text, as ThingsBoard's websocket sends them. */
export function textData(data: TsData): TsData {
  const text: TsData = {};
  for (const [key, list] of Object.entries(data)) {
    text[key] = list.map(([ts, value, ...flag]) => [ts, valueText(value), ...flag] as TsData[string][number]);
  }
  return text;
}

export function entriesToTsData(entries: readonly TelemetryEntry[], keys: ReadonlySet<string> | null): TsData {
  const data: TsData = {};
  for (const e of entries) {
    if (keys && !keys.has(e.key)) continue;
    (data[e.key] ??= []).push(e.flag ? [e.ts, e.value, e.flag] : [e.ts, e.value]);
  }
  for (const list of Object.values(data)) list.sort((a, b) => a[0] - b[0]);
  return data;
}

export function latestTs(data: TsData): Record<string, number> {
  return Object.fromEntries(Object.entries(data).map(([key, list]) => [key, list[list.length - 1]?.[0] ?? 0]));
}

/** The state a device had at `ts` as server attributes. */
export function serverAttributes(state: Device['deviceState'], ts: number, device?: Device): Record<string, TsValue> {
  const lastOnline = state === 'ONLINE' ? ts : (device?.lastOnlineTime ?? null);
  const lastOffline = state === 'OFFLINE' ? ts : (device?.lastOfflineTime ?? null);
  return {
    active: { ts, value: state === 'ONLINE' },
    deviceState: { ts, value: state },
    lastOnlineTime: { ts, value: lastOnline },
    lastOfflineTime: { ts, value: lastOffline },
  };
}

function stateTs(d: Device): number {
  return Math.max(d.lastOnlineTime ?? 0, d.lastOfflineTime ?? 0, d.createdTime);
}

export class LiveData {
  readonly telemetry: LiveTelemetry;
  readonly shared: LiveSharedAttributes;

  /** The reads of `telemetry` and `shared` are limited to the devices `devices` holds (its scope). */
  constructor(
    telemetry: LiveTelemetry,
    shared: LiveSharedAttributes,
    readonly devices: ScopedDevices,
  ) {
    if (devices.scope === null) {
      this.telemetry = telemetry;
      this.shared = shared;
      return;
    }
    const guard = (id: string): string => {
      if (!devices.exists(id)) throw notFound();
      return id;
    };
    this.telemetry = {
      timeseries: (id, query) => telemetry.timeseries(guard(id), query),
      keys: (id) => telemetry.keys(guard(id)),
      attributesOf: (id, keys) => telemetry.attributesOf(guard(id), keys),
    };
    this.shared = { values: (id, sharedScope, keys) => shared.values(guard(id), sharedScope, keys) };
  }

  device(id: string): Device {
    return this.devices.get(id);
  }

  deviceExists(id: string): boolean {
    return this.devices.exists(id);
  }

  deviceCount(): number {
    return this.devices.count();
  }

  latest(deviceId: string, keys: readonly string[] | null): TsData {
    return toTsData(this.telemetry.timeseries(deviceId, keys ? { keys: keys.join(',') } : {}));
  }

  /** Server, client and shared attributes by key, as `[ts, value]` data (scope null: all three). */
  attributes(device: Device, scope: 'CLIENT_SCOPE' | 'SERVER_SCOPE' | 'SHARED_SCOPE' | null, keys: ReadonlySet<string> | null): TsData {
    const data: TsData = {};
    if (scope === null || scope === 'SERVER_SCOPE') {
      for (const [key, v] of Object.entries(serverAttributes(device.deviceState, stateTs(device), device))) {
        if (!keys || keys.has(key)) data[key] = [[v.ts, v.value]];
      }
    }
    if (scope === null || scope === 'CLIENT_SCOPE') {
      for (const a of this.telemetry.attributesOf(device.id, keys ? [...keys].join(',') : undefined)) {
        data[a.key] = a.flag ? [[a.lastUpdateTs, a.value, a.flag]] : [[a.lastUpdateTs, a.value]];
      }
    }
    if (scope === null || scope === 'SHARED_SCOPE') {
      for (const a of this.shared.values(device.id, 'SHARED_SCOPE', keys ? [...keys] : null)) data[a.key] = [[a.lastUpdateTs, a.value]];
    }
    return data;
  }

  /** One DEVICE entity with the requested fields, latest telemetry and attributes. */
  entity(device: Device, fields: readonly string[], latest: readonly EntityKey[]): EntityData {
    const result: EntityData = { entityId: { entityType: 'DEVICE', id: device.id }, latest: {}, timeseries: {} };
    const ts = device.updatedTime;
    const fieldValues: Record<string, TsValue> = {};
    // The state always comes along: it is what a list's live badge shows.
    for (const key of new Set([...fields, 'deviceState'])) {
      const read = entityFields[key];
      if (read) fieldValues[key] = { ts: key === 'deviceState' ? stateTs(device) : ts, value: read(device) };
    }
    result.latest.ENTITY_FIELD = fieldValues;
    const tsKeys = latest.filter((k) => k.type === 'TIME_SERIES').map((k) => k.key);
    if (tsKeys.length) {
      const values: Record<string, TsValue> = {};
      for (const [key, list] of Object.entries(this.latest(device.id, tsKeys))) {
        const last = list[list.length - 1];
        if (last) values[key] = { ts: last[0], value: last[1] };
      }
      result.latest.TIME_SERIES = values;
    }
    const attributeKeys = latest.filter((k) => k.type !== 'TIME_SERIES' && k.type !== 'ENTITY_FIELD');
    if (attributeKeys.length) {
      const server = this.attributes(device, 'SERVER_SCOPE', null);
      const client = this.attributes(device, 'CLIENT_SCOPE', null);
      const shared = attributeKeys.some((k) => k.type === 'SHARED_ATTRIBUTE' || k.type === 'ATTRIBUTE') ? this.attributes(device, 'SHARED_SCOPE', null) : {};
      for (const { type, key } of attributeKeys) {
        const found =
          type === 'SERVER_ATTRIBUTE'
            ? server[key]
            : type === 'CLIENT_ATTRIBUTE'
              ? client[key]
              : type === 'SHARED_ATTRIBUTE'
                ? shared[key]
                : type === 'ATTRIBUTE'
                  ? (server[key] ?? client[key] ?? shared[key])
                  : undefined;
        const value = found?.[0];
        if (value) (result.latest[type] ??= {})[key] = { ts: value[0], value: value[1] };
      }
    }
    for (const k of ['ENTITY_FIELD', 'TIME_SERIES', 'ATTRIBUTE', 'SERVER_ATTRIBUTE', 'CLIENT_ATTRIBUTE', 'SHARED_ATTRIBUTE'] as const) {
      if (latest.some((l) => l.type === k)) result.latest[k] ??= {};
    }
    return result;
  }
}
