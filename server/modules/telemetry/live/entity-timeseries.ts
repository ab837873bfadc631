/**
 * The time series of an ENTITY_DATA subscription (`tsCmd`, `historyCmd`; server/contract/realtime.ts)
 * in ThingsBoard's shapes: `{ key: [{ ts, value }] }` with values as text, raw points newest first,
 * and for a `tsCmd` every value of its keys stored from its start on.
 */
import type { EntityHistoryCmd, EntityTimeseriesData, EntityTsCmd, TsTextValue } from '../../../contract/realtime.ts';
import { HISTORY_LIMIT_DEFAULT, type TelemetryEntry } from '../../../contract/telemetry.ts';
import { valueText, type LiveTelemetry } from './live-data.ts';


/** The points of `keys` (every key present, empty when none) of one device in [startTs, endTs). */
export function entityHistory(telemetry: LiveTelemetry, deviceId: string, cmd: EntityTsCmd | EntityHistoryCmd): Record<string, TsTextValue[]> {
  const keys = [...new Set(cmd.keys)];
  const result: Record<string, TsTextValue[]> = {};
  if (!keys.length) return result;
  const endTs = 'endTs' in cmd ? cmd.endTs : cmd.startTs + cmd.timeWindow;
  const agg = cmd.agg ?? 'NONE';
  const points = telemetry.timeseries(deviceId, {
    keys: keys.join(','),
    startTs: cmd.startTs,
    endTs,
    agg,
    // ThingsBoard's UI sends interval 0 with agg NONE; with an aggregation 0 is no interval.
    interval: cmd.interval || undefined,
    // ThingsBoard reads limit 0 as its default.
    limit: cmd.limit || (agg === 'NONE' ? HISTORY_LIMIT_DEFAULT : undefined),
    ...(agg === 'NONE' ? { orderBy: 'DESC' as const } : {}),
  });
  for (const key of keys) result[key] = (points[key] ?? []).map((p) => ({ ts: p.ts, value: valueText(p.value) }));
  return result;
}

/** A `tsCmd` following one subscription's devices: which stored values are news for it. */
export class EntityTsFollower {
  private readonly keys: ReadonlySet<string>;

  constructor(private readonly cmd: EntityTsCmd) {
    this.keys = new Set(cmd.keys);
  }

  /** The entity update for `entries` of `deviceId`, or null when none is of its keys and window start. */
  update(deviceId: string, entries: readonly TelemetryEntry[]): EntityTimeseriesData | null {
    let timeseries: Record<string, TsTextValue[]> | null = null;
    for (const e of entries) {
      if (!this.keys.has(e.key) || e.ts < this.cmd.startTs) continue;
      timeseries ??= {};
      (timeseries[e.key] ??= []).push({ ts: e.ts, value: valueText(e.value) });
    }
    return timeseries && { entityId: { entityType: 'DEVICE', id: deviceId }, latest: null, timeseries };
  }
}
