/**
 * Share links of configurations: a random token shown once and kept as its SHA-256, one live link
 * per configuration, revoked at once by deleting it, optionally expiring. A token opens only its
 * configuration's layout and the latest values and history of the layout's own bindings; anything
 * else (another device, a key no widget binds, a revoked or expired link) answers 404 as if it did
 * not exist. Every address is limited in its calls, and more tightly in its unknown tokens, so a
 * token cannot be guessed by trying.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ErrorCode } from '../../contract/errors.ts';
import { HISTORY_LIMIT_DEFAULT, type TimeseriesQuery, type TimeseriesValues } from '../../contract/telemetry.ts';
import type { Alarm } from '../../contract/alarm.ts';
import {
  VIS_ALARM_PRODUCT_DEVICES_MAX,
  VIS_ALARM_ROWS_MAX,
  VIS_SHARE_TOKEN_BYTES,
  type SharedAlarm,
  shareUrlOf,
  type ShareBody,
  type ShareLink,
  type SharedHistoryQuery,
  type SharedLatest,
  type SharedVisualization,
  type Visualization,
  type Widget,
} from '../../contract/visualization.ts';
import type { AuthUser } from '../../core.ts';
import { AppError } from '../../lib/app-error.ts';
import type { DeviceScope } from '../../lib/device-scope.ts';
import { FailureWindow } from '../../lib/failure-counters.ts';
import { violationError } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import type { VisualizationService } from './visualization-service.ts';

/** Calls per address per minute: a wall display polling every few seconds stays far below. */
export const SHARE_CALLS_PER_MINUTE = 240;
/** Unknown, revoked or expired tokens per address per five minutes. */
export const SHARE_MISSES_LIMIT = 20;

export interface ShareServiceDeps {
  visualizations: VisualizationService;
  timeseries(deviceId: string, query: TimeseriesQuery): TimeseriesValues;
  /** Active alarms of these devices, newest first, at most `limit`. */
  activeAlarms(deviceIds: readonly string[], limit: number): Alarm[];
  /** The ids of a product's devices now, within `organizationId` and its descendants (null: every device), at most `limit`. */
  productDevices(productId: string, organizationId: string | null, limit: number): string[];
}

/** The read-only row a share page gets of an alarm (never who acknowledged or cleared it), for the alarm lists `widgetIds`. */
export function sharedAlarmOf(a: Alarm, widgetIds: string[]): SharedAlarm | null {
  if (a.deviceId === null) return null;
  return { id: a.id, deviceId: a.deviceId, deviceName: a.deviceName, type: a.type, severity: a.severity, status: a.status, createdTime: a.createdTime, widgetIds };
}

/** An alarm list's own devices and product, as saved (its single-device binding included). */
function alarmSourceOf(w: Widget): { deviceIds: string[]; productId: string | undefined } {
  const deviceIds = [...new Set([...(w.binding ? [w.binding.deviceId] : []), ...(w.alarmSource?.deviceIds ?? [])])];
  return { deviceIds, productId: w.alarmSource?.productId };
}

/** Whether a layout's alarm lists name a product: their devices then change without the layout changing. */
export function namesProduct(v: Visualization): boolean {
  return v.layout.widgets.some((w) => w.type === 'alarms' && w.alarmSource?.productId !== undefined);
}

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function shareNotFound(): AppError {
  return new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.visualization.shareNotFound');
}

/** Every device and key the layout's widgets bind (chart bindings apart: they also read history). */
export function bindingsOf(v: Visualization, types?: ReadonlySet<string>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const w of v.layout.widgets) {
    // An alarm list's binding names a device whose alarms it shows, not a telemetry key.
    if (!w.binding || w.type === 'alarms' || (types && !types.has(w.type))) continue;
    const keys = out.get(w.binding.deviceId) ?? new Set<string>();
    keys.add(w.binding.key);
    out.set(w.binding.deviceId, keys);
  }
  return out;
}

const historyTypes: ReadonlySet<string> = new Set(['chart']);

export class ShareService {
  private readonly calls = new FailureWindow(SHARE_CALLS_PER_MINUTE, 60_000);
  private readonly misses = new FailureWindow(SHARE_MISSES_LIMIT, 5 * 60_000);

  constructor(private readonly deps: ShareServiceDeps) {}

  create(id: string, body: ShareBody, user: AuthUser, scope: DeviceScope): ShareLink {
    this.deps.visualizations.get(id, scope);
    const now = Date.now();
    if (body.expiresAt !== undefined && body.expiresAt <= now) throw violationError([{ field: 'expiresAt', key: 'error.visualization.expiresInPast' }]);
    const shareToken = randomBytes(VIS_SHARE_TOKEN_BYTES).toString('base64url');
    this.deps.visualizations.rows.replaceShare({ id: newId(), visualizationId: id, tokenHash: hashOf(shareToken), expiresAt: body.expiresAt ?? null, createdBy: user.id, now });
    // The link it replaced ends now, open share pages included.
    this.deps.visualizations.announce(id);
    return { shareToken, url: shareUrlOf(shareToken), ...(body.expiresAt !== undefined ? { expiresAt: body.expiresAt } : {}) };
  }

  revoke(id: string, scope: DeviceScope): void {
    this.deps.visualizations.get(id, scope);
    this.deps.visualizations.rows.deleteShare(id);
    this.deps.visualizations.announce(id);
  }

  shared(token: string, ip: string): SharedVisualization {
    const v = this.open(token, ip);
    return { name: v.name, platform: v.platform, layout: v.layout };
  }

  latest(token: string, ip: string): SharedLatest {
    return this.latestOf(this.open(token, ip));
  }

  /** For a live share page: the configuration and when its link ends, under the same limits as every call. */
  follow(token: string, ip: string): { visualization: Visualization; expiresAt: number | null } {
    const visualization = this.open(token, ip);
    return { visualization, expiresAt: this.live(token, Date.now())!.expiresAt };
  }

  /** The configuration `token` still opens (a live page asks again after every change), or undefined once revoked, replaced or expired. */
  stillOpens(token: string): Visualization | undefined {
    return this.live(token, Date.now())?.visualization;
  }

  /** The latest value of each of the layout's bindings. */
  latestOf(v: Visualization): SharedLatest {
    const out: SharedLatest = {};
    for (const [deviceId, keys] of bindingsOf(v)) {
      const values = this.read(deviceId, { keys: [...keys].join(',') });
      const points: SharedLatest[string] = {};
      for (const [key, list] of Object.entries(values)) if (keys.has(key) && list[0]) points[key] = { ts: list[0].ts, value: list[0].value };
      if (Object.keys(points).length) out[deviceId] = points;
    }
    return out;
  }

  /**
   * The devices each alarm list of the layout shows now, by widget id: its devices, and its
   * product's devices inside the configuration's organization (the only devices whose alarms its
   * share link reads). An alarm list that names nothing shows nothing through a link.
   */
  alarmWidgetsOf(v: Visualization): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    for (const w of v.layout.widgets) {
      if (w.type !== 'alarms') continue;
      const { deviceIds, productId } = alarmSourceOf(w);
      const devices = new Set(deviceIds);
      if (productId) for (const id of this.deps.productDevices(productId, v.organizationId, VIS_ALARM_PRODUCT_DEVICES_MAX)) devices.add(id);
      if (devices.size) out.set(w.id, devices);
    }
    return out;
  }

  /** The active alarms of each alarm list (at most a full list each), newest first, each row naming the lists that show it. */
  alarmsOf(widgets: ReadonlyMap<string, ReadonlySet<string>>): SharedAlarm[] {
    const rows = new Map<string, SharedAlarm>();
    for (const [widgetId, devices] of widgets) {
      for (const alarm of this.deps.activeAlarms([...devices], VIS_ALARM_ROWS_MAX)) {
        const row = rows.get(alarm.id) ?? sharedAlarmOf(alarm, []);
        if (!row) continue;
        row.widgetIds.push(widgetId);
        rows.set(alarm.id, row);
      }
    }
    return [...rows.values()].sort((a, b) => b.createdTime - a.createdTime);
  }

  history(token: string, ip: string, query: SharedHistoryQuery): { ts: number; value: unknown }[] {
    const v = this.open(token, ip);
    if (!bindingsOf(v, historyTypes).get(query.deviceId)?.has(query.key)) throw shareNotFound();
    const values = this.read(query.deviceId, { keys: query.key, startTs: query.startTs, endTs: query.endTs, limit: HISTORY_LIMIT_DEFAULT * 10, orderBy: 'ASC' });
    return (values[query.key] ?? []).map((p) => ({ ts: p.ts, value: p.value }));
  }

  /** The configuration behind a live token, after the address's limits. */
  private open(token: string, ip: string): Visualization {
    const now = Date.now();
    const wait = Math.max(this.calls.retryAfterMs(ip, now), this.misses.retryAfterMs(ip, now));
    if (wait > 0) throw new AppError(ErrorCode.TOO_MANY_REQUESTS, 'error.visualization.shareRateLimited', { seconds: Math.ceil(wait / 1000) });
    this.calls.record(ip, now);
    const found = this.live(token, now);
    if (!found) {
      this.misses.record(ip, now);
      throw shareNotFound();
    }
    return found.visualization;
  }

  private live(token: string, now: number): { visualization: Visualization; expiresAt: number | null } | undefined {
    const share = this.deps.visualizations.rows.shareByHash(hashOf(token));
    const visualization = share && (share.expiresAt === null || share.expiresAt > now) ? this.deps.visualizations.find(share.visualizationId) : undefined;
    return visualization && { visualization, expiresAt: share!.expiresAt };
  }

  /** A deleted device's binding reads as nothing: the widget shows it as missing. */
  private read(deviceId: string, query: TimeseriesQuery): TimeseriesValues {
    try {
      return this.deps.timeseries(deviceId, { ...query, useStrictDataTypes: true });
    } catch (err) {
      if (err instanceof AppError && err.code === ErrorCode.ITEM_NOT_FOUND) return {};
      throw err;
    }
  }
}
