/**
 * React hooks over the live connection (ws-client.ts): the latest telemetry of a device and its
 * online state, updated as the server pushes them. The pure merge functions are exported for tests.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { commandStatuses, type Command } from '../../server/contract/command.ts';
import type { DeviceState } from '../../server/contract/device.ts';
import type { CommandsUpdate, EntityData, EntityDataUpdate, TelemetryUpdate, WsUpdate } from '../../server/contract/realtime.ts';
import { subscribe } from './ws-client.ts';

/** A key's newest value; `flag` says why it did not match the published thing model. */
export interface LatestValue {
  ts: number;
  value: unknown;
  flag?: string;
}
export type LatestValues = Record<string, LatestValue>;

export interface LiveState<T> {
  data: T;
  /** True until the first answer. */
  loading: boolean;
  /** The server's reason when it refused the subscription. */
  error: string | null;
}

/** `values` with the newest point of each key in a TIMESERIES answer (older points never win). */
export function mergeLatest(values: LatestValues, update: TelemetryUpdate): LatestValues {
  if (!update.data) return values;
  let next = values;
  for (const [key, points] of Object.entries(update.data)) {
    const newest = points[points.length - 1];
    if (!newest) continue;
    const seen = next[key];
    if (seen && seen.ts > newest[0]) continue;
    if (next === values) next = { ...values };
    next[key] = newest.length > 2 ? { ts: newest[0], value: newest[1], flag: newest[2] as string } : { ts: newest[0], value: newest[1] };
  }
  return next;
}

export interface EntityState {
  state: DeviceState | null;
  /** When the state last changed. */
  ts: number | null;
  lastOnlineTime: number | null;
  lastOfflineTime: number | null;
}

export const unknownEntityState: EntityState = { state: null, ts: null, lastOnlineTime: null, lastOfflineTime: null };

/** The device's state after an ENTITY_DATA answer (first page or later update). */
export function mergeEntityState(current: EntityState, update: EntityDataUpdate, deviceId: string): EntityState {
  const entities: EntityData[] = update.data?.data ?? update.update ?? [];
  const entity = entities.find((e) => e.entityId.id === deviceId);
  if (!entity) return current;
  const next = { ...current };
  const state = entity.latest.ENTITY_FIELD?.deviceState;
  if (state && (next.ts === null || state.ts >= next.ts)) {
    next.state = state.value as DeviceState;
    next.ts = state.ts;
  }
  const attributes = entity.latest.SERVER_ATTRIBUTE ?? {};
  const online = attributes.lastOnlineTime?.value;
  const offline = attributes.lastOfflineTime?.value;
  if (typeof online === 'number') next.lastOnlineTime = online;
  if (typeof offline === 'number') next.lastOfflineTime = offline;
  return next;
}

/** Which of two copies of a command record is the later one (statuses only move forward). */
export function laterCommand(a: Command, b: Command): Command {
  if (a.updatedTime !== b.updatedTime) return a.updatedTime > b.updatedTime ? a : b;
  return commandStatuses.indexOf(a.status) >= commandStatuses.indexOf(b.status) ? a : b;
}

/** `live` with the records of a COMMANDS answer, each kept only when it is the later copy. */
export function mergeCommands(live: Readonly<Record<string, Command>>, changed: readonly Command[]): Record<string, Command> {
  const next = { ...live };
  for (const c of changed) next[c.id] = next[c.id] ? laterCommand(next[c.id]!, c) : c;
  return next;
}

function isCommands(update: WsUpdate): update is CommandsUpdate {
  return update.cmdUpdateType === 'COMMANDS';
}

export function isTelemetry(update: WsUpdate): update is TelemetryUpdate {
  return update.cmdUpdateType === 'TIMESERIES';
}

function isEntityData(update: WsUpdate): update is EntityDataUpdate {
  return update.cmdUpdateType === 'ENTITY_DATA';
}

/**
 * The latest value of each telemetry key of a device (all keys when `keys` is left out), live.
 *
 * @example
 * ```tsx
 * function TemperatureCard({ deviceId }: { deviceId: string }): JSX.Element {
 *   const { data, loading } = useLatestTelemetry(deviceId, ['temperature', 'humidity']);
 *   if (loading) return <Spin />;
 *   return <span data-testid="latest-temperature">{String(data.temperature?.value ?? '-')}</span>;
 * }
 * ```
 */
export function useLatestTelemetry(deviceId: string | null | undefined, keys?: readonly string[]): LiveState<LatestValues> {
  const keyText = useMemo(() => (keys ? [...keys].sort().join(',') : ''), [keys]);
  const [state, setState] = useState<LiveState<LatestValues>>({ data: {}, loading: true, error: null });
  useEffect(() => {
    setState({ data: {}, loading: Boolean(deviceId), error: null });
    if (!deviceId) return undefined;
    return subscribe(
      // Typed values: the console shows numbers and objects as they came (ThingsBoard's default is text).
      { type: 'TIMESERIES', entityType: 'DEVICE', entityId: deviceId, scope: 'LATEST_TELEMETRY', useStrictDataTypes: true, ...(keyText ? { keys: keyText } : {}) },
      (update) => {
        if (update.errorCode) {
          setState((s) => ({ ...s, loading: false, error: update.errorMsg }));
        } else if (isTelemetry(update)) {
          setState((s) => ({ data: mergeLatest(s.data, update), loading: false, error: null }));
        }
      },
    );
  }, [deviceId, keyText]);
  return state;
}

/**
 * A device's state (ONLINE, OFFLINE, INACTIVE) and its last online and offline times, live.
 *
 * @example
 * ```tsx
 * function DeviceStateBadge({ deviceId }: { deviceId: string }): JSX.Element {
 *   const { data } = useEntityState(deviceId);
 *   return <Tag data-testid="device-live-state">{data.state ?? '-'}</Tag>;
 * }
 * ```
 */
export function useEntityState(deviceId: string | null | undefined): LiveState<EntityState> {
  const [state, setState] = useState<LiveState<EntityState>>({ data: unknownEntityState, loading: true, error: null });
  useEffect(() => {
    setState({ data: unknownEntityState, loading: Boolean(deviceId), error: null });
    if (!deviceId) return undefined;
    return subscribe(
      {
        type: 'ENTITY_DATA',
        query: {
          entityFilter: { type: 'singleEntity', singleEntity: { entityType: 'DEVICE', id: deviceId } },
          entityFields: [{ type: 'ENTITY_FIELD', key: 'deviceState' }],
          latestValues: [
            { type: 'SERVER_ATTRIBUTE', key: 'lastOnlineTime' },
            { type: 'SERVER_ATTRIBUTE', key: 'lastOfflineTime' },
          ],
        },
      },
      (update) => {
        if (update.errorCode) {
          setState((s) => ({ ...s, loading: false, error: update.errorMsg }));
        } else if (isEntityData(update)) {
          setState((s) => ({ data: mergeEntityState(s.data, update, deviceId), loading: false, error: null }));
        }
      },
    );
  }, [deviceId]);
  return state;
}

export interface CommandUpdatesHandlers {
  /** Records created or changed (in the order it happened). */
  onChange: (commands: Command[]) => void;
  /** The subscription is live again after the connection was lost: a list may have missed changes. */
  onResumed?: () => void;
}

/**
 * Follows the command records of a device: `onChange` gets each batch of records created or
 * changed (QUEUED, SENT, DELIVERED, SUCCESSFUL, …). Returns the server's reason when it refused
 * the subscription (an upstream without COMMANDS), so the view can fall back to polling.
 *
 * @example
 * ```tsx
 * const [live, setLive] = useState<Record<string, Command>>({});
 * const liveError = useCommandUpdates(deviceId, { onChange: (changed) => setLive((l) => mergeCommands(l, changed)) });
 * ```
 */
export function useCommandUpdates(deviceId: string | null | undefined, handlers: CommandUpdatesHandlers): string | null {
  const latest = useRef(handlers);
  latest.current = handlers;
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setError(null);
    if (!deviceId) return undefined;
    let answers = 0;
    return subscribe({ type: 'COMMANDS', entityType: 'DEVICE', entityId: deviceId }, (update) => {
      if (update.errorCode) {
        setError(update.errorMsg ?? String(update.errorCode));
      } else if (isCommands(update)) {
        setError(null);
        // An empty answer starts a subscription; after the first one it follows a reconnect.
        if (update.data.length) latest.current.onChange(update.data);
        else if (answers++ > 0) latest.current.onResumed?.();
      }
    });
  }, [deviceId]);
  return error;
}
