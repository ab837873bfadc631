/**
 * Telemetry rules: checked values into the batched writer (flagged against the published thing
 * model, never dropped for not matching), the ThingsBoard-compatible reads of
 * server/contract/telemetry.ts, the retention setting and the clean-up it drives.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import {
  HISTORY_LIMIT_DEFAULT,
  HISTORY_LIMIT_MAX,
  RETENTION_DAYS_DEFAULT,
  type AttributeValue,
  type TelemetrySettings,
  type TelemetryValue,
  type TimeseriesPoint,
  type TimeseriesQuery,
  type TimeseriesValues,
} from '../../contract/telemetry.ts';
import type { EventListQuery, EventPage, EventType } from '../../contract/event-record.ts';
import { readSetting, writeSetting } from '../../db/setting-store.ts';
import type { Db } from '../../db/sqlite.ts';
import { violationError } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import type { DeviceService } from '../device/device-service.ts';
import type { ParsedEvent, ParsedValue } from '../../lib/device-payload.ts';
import { keyList, telemetryValues } from '../../lib/device-payload.ts';
import { fromRestBody } from './rest-payload.ts';
import { checkedAttributes } from './attribute-checks.ts';
import type { ModelChecks } from '../thing-model/device-data-checks.ts';
import type { CompactionResult, HistoryCompactor } from './history-compactor.ts';
import type { HistoryBudget } from './history-budget.ts';
import { DELETE_CHUNK, BLOCK_CHUNK, pruneSeriesBefore } from './history-prune.ts';
import { DiskFullRefusal } from '../../lib/disk-full.ts';
import type { DiskGuard } from './disk-guard.ts';
import { DatabaseLostRefusal, type DatabaseFileWatch } from '../../lib/database-file-watch.ts';
import type { ProductRetentionStore } from './product-retention.ts';
import type { TelemetryRepository } from './telemetry-repository.ts';
import { CLIENT_SCOPE, type SequencedEvent, type StoredPoint, type TelemetryRow } from './telemetry-rows.ts';
import { committed, type Committed, type TelemetryWriter } from './telemetry-writer.ts';

const SETTING_ID = 'telemetry';
const DAY_MS = 86_400_000;

/** Who sent a message: the device and the product whose model checks it. */
export interface SourceDevice {
  id: string;
  deviceProfileId: string;
}

export interface RetentionResult {
  history: number;
  events: number;
}

export interface TelemetryServiceDeps {
  db: Db;
  rows: TelemetryRepository;
  writer: TelemetryWriter;
  compactor: HistoryCompactor;
  checks: ModelChecks;
  devices: Pick<DeviceService, 'get' | 'refs'>;
  log: FastifyBaseLogger;
  /** Free disk space: telemetry is refused while it is low. */
  disk: DiskGuard;
  databaseFile: Pick<DatabaseFileWatch, 'lost'>;
  /** The database size cap and the space pruning returns. */
  budget: HistoryBudget;
  productRetention: ProductRetentionStore;
}

function asString(value: TelemetryValue): string {
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function point(p: StoredPoint, strict: boolean): TimeseriesPoint {
  const value = strict ? p.value : asString(p.value);
  return p.flag ? { ts: p.ts, value, flag: p.flag } : { ts: p.ts, value };
}

export class TelemetryService {
  /** Set when the app closes: clean-up loops stop between steps instead of using a closed database. */
  private stopped = false;

  constructor(private readonly deps: TelemetryServiceDeps) {}

  stop(): void {
    this.stopped = true;
  }

  /**
   * Stores telemetry; `done` runs once it is committed. Each value is put in its property's type
   * where it converts and flagged when it does not fit the model (the parsed values are taken over:
   * they are fresh per message).
   */
  storeTelemetry(device: SourceDevice, values: TelemetryRow[], bytes: number, done: Committed): void {
    const { checks } = this.deps;
    this.refuseWhileStorageDown();
    for (const v of values) checks.property(device.deviceProfileId, v);
    this.deps.writer.enqueue({ deviceId: device.id, deviceProfileId: device.deviceProfileId, bytes, telemetry: values }, done);
  }

  /**
   * Device data is not taken while it could not be kept: on a disk below its free-space floor, or
   * into a database file that was deleted under the gateway (server/lib/database-file-watch.ts).
   */
  private refuseWhileStorageDown(): void {
    if (this.deps.disk.low) throw new DiskFullRefusal();
    if (this.deps.databaseFile.lost) throw new DatabaseLostRefusal();
  }

  /** `storeTelemetry` as a promise. */
  telemetry(device: SourceDevice, values: TelemetryRow[], bytes: number): Promise<void> {
    return committed((done) => this.storeTelemetry(device, values, bytes, done));
  }

  /** `POST …/timeseries/{scope}`: telemetry a user saves for a device, read and stored as the device's own message. */
  saveTimeseries(deviceId: string, body: unknown): Promise<void> {
    const device = this.deps.devices.get(deviceId);
    const values = fromRestBody(body, telemetryValues);
    return this.telemetry(device, values, JSON.stringify(body).length);
  }

  /**
   * Telemetry that must fit the device's published thing model (a Node-RED flow's, through the
   * palette): unlike a device's own message, whose misfits are stored flagged, one value that does
   * not fit refuses the whole message and nothing of it is stored. A product without a published
   * model refuses nothing, as for its devices.
   */
  saveChecked(deviceId: string, body: unknown): Promise<void> {
    const device = this.deps.devices.get(deviceId);
    const values = fromRestBody(body, telemetryValues);
    for (const v of values) this.deps.checks.property(device.deviceProfileId, v);
    const misfits = values.filter((v) => v.flag);
    if (misfits.length) {
      throw violationError(misfits.map((v) => ({ field: v.key, key: 'error.nodeRedPalette.modelRefused', params: { key: v.key, reason: v.flag! } })), 'values');
    }
    return this.telemetry(device, values, JSON.stringify(body).length);
  }

  /** Client attributes: the latest of each key is kept. */
  attributes(device: SourceDevice, values: readonly ParsedValue[], bytes: number): Promise<void> {
    // Callers are async functions: the refusal reaches them as a rejection.
    this.refuseWhileStorageDown();
    const attributes = checkedAttributes(this.deps.checks, device.deviceProfileId, values);
    return this.deps.writer.write({ deviceId: device.id, deviceProfileId: device.deviceProfileId, bytes, attributes });
  }

  /** Event records matched to the model's events; an unmatched one keeps the device's type and a flag. */
  events(device: SourceDevice, events: readonly ParsedEvent[], bytes: number): Promise<void> {
    this.refuseWhileStorageDown();
    const now = Date.now();
    const records = events.map((e) => {
      const match = this.deps.checks.event(device.deviceProfileId, e.identifier, e.params);
      return {
        id: newId(),
        deviceId: device.id,
        ts: e.ts,
        identifier: e.identifier,
        eventName: match.eventName,
        eventType: match.eventType ?? e.eventType ?? 'INFO',
        params: e.params,
        flag: match.flag,
        createdTime: now,
      };
    });
    return this.deps.writer.write({ deviceId: device.id, deviceProfileId: device.deviceProfileId, bytes, events: records });
  }

  /** `GET …/values/timeseries`: latest values without startTs, else history (raw or aggregated). */
  timeseries(deviceId: string, query: TimeseriesQuery): TimeseriesValues {
    this.deps.devices.get(deviceId);
    const keys = keyList(query.keys);
    const strict = query.useStrictDataTypes ?? true;
    const result: TimeseriesValues = {};
    if (query.startTs === undefined) {
      for (const p of this.deps.rows.latest(deviceId, keys)) result[p.key] = [point(p, strict)];
      return result;
    }
    if (!keys) throw violationError([{ field: 'keys', key: 'error.telemetry.keysRequired' }], 'querystring');
    const startTs = query.startTs;
    const endTs = query.endTs ?? Date.now() + 1;
    if (endTs < startTs) throw violationError([{ field: 'endTs', key: 'error.telemetry.rangeInvalid' }], 'querystring');
    const agg = query.agg ?? 'NONE';
    if (agg === 'NONE') {
      const limit = query.limit ?? HISTORY_LIMIT_DEFAULT;
      const order = query.orderBy ?? 'DESC';
      for (const key of keys) result[key] = this.deps.rows.history(deviceId, key, startTs, endTs, limit, order).map((p) => point(p, strict));
      return result;
    }
    const interval = query.interval;
    if (interval === undefined) throw violationError([{ field: 'interval', key: 'error.telemetry.intervalRequired' }], 'querystring');
    if (Math.ceil((endTs - startTs) / interval) > HISTORY_LIMIT_MAX) {
      throw violationError([{ field: 'interval', key: 'error.telemetry.tooManyIntervals', params: { max: HISTORY_LIMIT_MAX } }], 'querystring');
    }
    const limit = query.limit ?? HISTORY_LIMIT_MAX;
    const order = query.orderBy ?? 'ASC';
    for (const key of keys) {
      result[key] = this.deps.rows.aggregate(deviceId, key, { startTs, endTs, interval }, agg, limit, order, query.includeOutOfRange ?? false).map(({ bucket, value }) => {
        // ThingsBoard stamps a bucket with its middle; the last bucket ends at endTs.
        const from = startTs + bucket * interval;
        const to = Math.min(from + interval, endTs);
        return { ts: from + Math.floor((to - from) / 2), value: strict ? value : String(value) };
      });
    }
    return result;
  }

  /** One page of the device's event records, newest first (the records ingestion stored). */
  eventPage(deviceId: string, query: EventListQuery): EventPage {
    this.deps.devices.get(deviceId);
    if (query.startTime !== undefined && query.endTime !== undefined && query.endTime < query.startTime) {
      throw violationError([{ field: 'endTime', key: 'error.event.rangeInvalid' }], 'querystring');
    }
    const { items, total } = this.deps.rows.eventPage(deviceId, query, query.page, query.pageSize);
    return {
      items: items.map(({ createdTime: _created, ...e }) => ({ ...e, eventType: e.eventType as EventType })),
      total,
    };
  }

  /** Up to `limit` event records of any device stored after `seq`, in storage order (the cloud link's event uplink). */
  eventsAfter(seq: number, limit: number): SequencedEvent[] {
    return this.deps.rows.eventsAfter(seq, limit);
  }

  /** How many event records were stored after `seq`, and the oldest one's ts (null: none). */
  eventsWaiting(seq: number): { count: number; oldestTs: number | null } {
    return this.deps.rows.eventsWaiting(seq);
  }

  /** The `seq` of the newest event record (0: none yet). */
  newestEventSeq(): number {
    return this.deps.rows.newestEventSeq();
  }

  keys(deviceId: string): string[] {
    this.deps.devices.get(deviceId);
    return this.deps.rows.keys(deviceId);
  }

  attributesOf(deviceId: string, keysText: string | undefined): AttributeValue[] {
    this.deps.devices.get(deviceId);
    return this.deps.rows.attributes(deviceId, CLIENT_SCOPE, keyList(keysText));
  }

  settings(): TelemetrySettings {
    const stored = readSetting<Partial<TelemetrySettings>>(this.deps.db, SETTING_ID)?.value;
    return { telemetryRetentionDays: stored?.telemetryRetentionDays ?? RETENTION_DAYS_DEFAULT };
  }

  updateSettings(settings: TelemetrySettings): TelemetrySettings {
    writeSetting(this.deps.db, SETTING_ID, settings);
    return this.settings();
  }

  /** Moves history rows older than the recent window into compressed blocks (history-compactor.ts). */
  compactHistory(now = Date.now()): Promise<CompactionResult> {
    return this.deps.compactor.run(now);
  }

  /**
   * Deletes history and event records older than the retention, and whatever is left of deleted
   * devices, in small steps.
   */
  async runRetention(now = Date.now()): Promise<RetentionResult> {
    const { rows, devices } = this.deps;
    // Staged values are history too: as rows, retention reaches them.
    this.deps.writer.moveStaged();
    const before = now - this.settings().telemetryRetentionDays * DAY_MS;
    const ownDays = this.deps.productRetention.all();
    // A device's product, looked up once per run: its own retention or the global one.
    const productOf = new Map<string, string>();
    const result: RetentionResult = { history: 0, events: 0 };
    const gone = new Set<string>();
    for (const { id, deviceId } of rows.series()) {
      if (this.stopped) break;
      if (devices.refs().deviceType(deviceId) === undefined) {
        gone.add(deviceId);
        continue;
      }
      let product = productOf.get(deviceId);
      if (product === undefined) productOf.set(deviceId, (product = devices.get(deviceId).deviceProfileId));
      const days = ownDays.get(product);
      const seriesBefore = days === undefined ? before : now - days * DAY_MS;
      result.history += await pruneSeriesBefore(this.deps.db, rows, id, seriesBefore, () => this.stopped);
    }
    for (let n = DELETE_CHUNK; n === DELETE_CHUNK && !this.stopped; ) {
      n = rows.deleteEventsBefore(before, DELETE_CHUNK);
      result.events += n;
      await yieldToLoop();
    }
    for (const deviceId of gone) if (!this.stopped) await this.purgeDevice(deviceId);
    if (!this.stopped) await this.deps.budget.reclaim();
    this.deps.log.info({ ...result, before }, 'telemetry retention done');
    return result;
  }

  /** Everything stored for a deleted device; the latest values go last, so retention finds leftovers. */
  async purgeDevice(deviceId: string): Promise<void> {
    const { rows } = this.deps;
    while (!this.stopped && rows.deleteDeviceHistory(deviceId, DELETE_CHUNK) === DELETE_CHUNK) await yieldToLoop();
    while (!this.stopped && rows.blocks.deleteDeviceBlocks(deviceId, BLOCK_CHUNK).blocks === BLOCK_CHUNK) await yieldToLoop();
    while (!this.stopped && rows.deleteDeviceEvents(deviceId, DELETE_CHUNK) === DELETE_CHUNK) await yieldToLoop();
    // Through the writer: batches of this device still on their way are committed first.
    if (!this.stopped) await this.deps.writer.write({ deviceId, deviceProfileId: '', bytes: 0, purge: true });
  }
}
