/**
 * The cloud link as one service: the connection (cloud-connection.ts), the cloud events of local
 * changes (cloud-event-sender.ts), store-and-forward of telemetry (telemetry-uplink.ts) and of
 * device events (event-uplink.ts), its durable progress and counters (cloud-progress.ts), the
 * cloud's RPCs and attribute updates (cloud-downlink.ts) and the gateway's own load. It keeps the
 * local device names the cloud knows the devices by, and answers the edge state.
 */
import type { MqttClient } from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import type { CloudConfig } from '../../contract/cloud.ts';
import type { CloudEventPage, CloudEventQuery, EdgeState } from '../../contract/cloud-link.ts';
import type { Language } from '../../contract/languages.ts';
import type { TelemetryEntry } from '../../contract/telemetry.ts';
import type { Core } from '../../core.ts';
import { readSetting, writeSetting } from '../../db/setting-store.ts';
import { AppError } from '../../lib/app-error.ts';
import { ErrorCode } from '../../contract/errors.ts';
import { translate } from '../../lib/messages.ts';
import type { Services } from '../../module.ts';
import { CloudConnection, type BackoffOptions } from './cloud-connection.ts';
import { CloudDownlink } from './cloud-downlink.ts';
import { CloudEventRepository, viewOf } from './cloud-event-repository.ts';
import { CloudEventSender, type NewCloudEvent } from './cloud-event-sender.ts';
import { CloudProgress } from './cloud-progress.ts';
import { EventUplink } from './event-uplink.ts';
import { testConnection } from './connection-test.ts';
import { reasonText } from './failure-reason.ts';
import { GATEWAY_TELEMETRY_TOPIC, GatewayLoad } from './gateway-load.ts';
import { TelemetryUplink } from './telemetry-uplink.ts';

export interface CloudLinkTuning {
  backoffMinMs?: number;
  backoffMaxMs?: number;
  /** How often the gateway's load is reported. */
  loadEveryMs?: number;
  /** The largest message the cloud takes; ThingsBoard's MQTT transport refuses over 64 KB by default. */
  maxPacketBytes?: number;
  /** Telemetry messages in flight. */
  window?: number;
}

const SETTING_ID = 'cloud-link';
const DEVICE_PAGE = 100;
const ANNOUNCE_EVERY_MS = 1000;
const BACKLOG_CACHE_MS = 1000;

interface KnownDevice {
  name: string;
  type: string;
  createdTime: number;
}

export type CloudLinkNeeds = Pick<Services, 'cloud' | 'license' | 'devices' | 'telemetry' | 'sharedAttributes' | 'commands'>;

export class CloudLinkService {
  private readonly connection: CloudConnection;
  private readonly events: CloudEventSender;
  private readonly eventRows: CloudEventRepository;
  private readonly uplink: TelemetryUplink;
  private readonly eventUplink: EventUplink;
  private readonly progress: CloudProgress;
  private readonly downlink: CloudDownlink;
  private readonly load: GatewayLoad;
  private readonly known = new Map<string, KnownDevice>();
  private client: MqttClient | null = null;
  private loadTimer: NodeJS.Timeout | null = null;
  private announceTimer: NodeJS.Timeout | null = null;
  private backlogCache: { at: number; value: EdgeState['backlog']; pendingCloudEvents: number } | null = null;
  private readonly maxPacketBytes: number;
  private readonly stateListeners = new Set<() => void>();

  constructor(
    private readonly deps: { core: Core; services: CloudLinkNeeds; log: FastifyBaseLogger; tuning: CloudLinkTuning },
  ) {
    const { core, services, log, tuning } = deps;
    this.maxPacketBytes = tuning.maxPacketBytes ?? 64 * 1024;
    const backoff: BackoffOptions = { minMs: tuning.backoffMinMs ?? 1000, maxMs: tuning.backoffMaxMs ?? 60_000 };
    this.eventRows = new CloudEventRepository(core.db);
    this.progress = new CloudProgress(core.db, log);
    const acknowledged = (n: number): void => this.countSent(n);
    this.events = new CloudEventSender({ db: core.db, rows: this.eventRows, maxPacketBytes: () => this.maxPacketBytes, log, acknowledged });
    this.uplink = new TelemetryUplink({
      db: core.db,
      progress: this.progress,
      telemetry: services.telemetry,
      nameOf: (id) => this.known.get(id)?.name ?? null,
      maxPacketBytes: () => this.maxPacketBytes,
      // History from before the cloud was first configured is not owed to it; a device created
      // since then owes all of its (within the retention), whatever ts its values carry.
      startOf: (id) => {
        const since = this.since();
        return (this.known.get(id)?.createdTime ?? 0) < since ? since : 0;
      },
      log,
      acknowledged,
      options: { window: tuning.window ?? 64 },
    });
    this.eventUplink = new EventUplink({
      events: services.telemetry,
      progress: this.progress,
      nameOf: (id) => this.known.get(id)?.name ?? null,
      maxPacketBytes: () => this.maxPacketBytes,
      retentionDays: () => services.telemetry.settings().telemetryRetentionDays,
      log,
      acknowledged,
      window: tuning.window ?? 64,
    });
    this.downlink = new CloudDownlink({
      deviceIdNamed: (name) => services.devices.refs().nameOwner(name) ?? null,
      commands: services.commands,
      sharedAttributes: services.sharedAttributes,
      log,
    });
    this.load = new GatewayLoad(core.config.dataDir);
    this.connection = new CloudConnection({
      clientId: services.license.deviceSn,
      backoff,
      log,
      listener: {
        connected: (client) => this.connected(client),
        disconnected: () => this.disconnected(),
        changed: () => {
          this.progress.times(this.connection.lastConnectTime, this.connection.lastDisconnectTime);
          this.announce();
        },
      },
    });
    // The state page's times survive a restart (the counters live in the progress row).
    this.connection.lastConnectTime = this.progress.lastConnectTime;
    this.connection.lastDisconnectTime = this.progress.lastDisconnectTime;
    this.loadEveryMs = tuning.loadEveryMs ?? 60_000;
  }

  private readonly loadEveryMs: number;

  /** Reads the devices and connects when a configuration is stored. */
  start(): void {
    this.learnDevices();
    const config = this.deps.services.cloud.stored();
    if (config) this.configure(config);
  }

  close(): void {
    if (this.loadTimer) clearInterval(this.loadTimer);
    if (this.announceTimer) clearTimeout(this.announceTimer);
    this.connection.close();
    this.progress.flush();
    this.events.save();
  }

  configure(config: CloudConfig): void {
    const first = !readSetting<{ since: number }>(this.deps.core.db, SETTING_ID);
    if (first) {
      writeSetting(this.deps.core.db, SETTING_ID, { since: Date.now() });
      this.eventUplink.startFromNow();
    }
    this.connection.configure(config);
    // The first cloud learns the devices that exist already; later ones arrive as they are created.
    if (first) for (const id of this.known.keys()) this.deviceCreated(id);
    this.uplink.markAll(this.known.keys());
  }

  test(config: CloudConfig, lang: Language): Promise<{ ok: boolean; code: number; message: string }> {
    return testConnection(this.deps.services.cloud.withCa(config), this.deps.services.license.deviceSn).then((o) => ({ ok: o.code === 0, code: o.code, message: translate(lang, o.key, o.params) }));
  }

  onStateChanged(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  state(lang: Language): EdgeState {
    const c = this.connection;
    const config = this.deps.services.cloud.stored();
    return {
      status: c.status,
      ...(c.lastError && c.status !== 'CONNECTED' ? { lastError: translate(lang, c.lastError.key, c.lastError.params) } : {}),
      edgeName: this.deps.services.license.deviceSn,
      edgeType: 'GATEWAY',
      edgeKey: config?.platformKey ?? '',
      ...(c.lastConnectTime !== null ? { lastConnectTime: c.lastConnectTime } : {}),
      ...(c.lastDisconnectTime !== null ? { lastDisconnectTime: c.lastDisconnectTime } : {}),
      ...(config ? this.backlog() : { backlog: { messages: 0 }, pendingCloudEvents: 0 }),
      sentToday: this.progress.sentToday,
      dropped: this.progress.dropped,
    };
  }

  /**
   * The backlog counts stored values per pending device (a few queries each, staging scanned): read
   * at most once a second however many pages and subscribers ask.
   */
  private backlog(): Pick<EdgeState, 'backlog' | 'pendingCloudEvents'> {
    const now = Date.now();
    if (!this.backlogCache || now - this.backlogCache.at >= BACKLOG_CACHE_MS) {
      const telemetry = this.uplink.backlog(this.uplink.pendingDevices());
      const events = this.eventUplink.backlog();
      const oldest = Math.min(telemetry.oldestTs ?? Infinity, events.oldestTs ?? Infinity);
      const messages = telemetry.messages + events.messages;
      this.backlogCache = {
        at: now,
        value: oldest === Infinity ? { messages } : { messages, oldestTs: oldest },
        pendingCloudEvents: this.eventRows.pendingCount(),
      };
    }
    return { backlog: this.backlogCache.value, pendingCloudEvents: this.backlogCache.pendingCloudEvents };
  }

  secret(): string {
    const config = this.deps.services.cloud.stored();
    if (!config) throw new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.cloud.notConfigured', {}, { status: 404 });
    return config.platformSecret;
  }

  eventPage(query: CloudEventQuery, lang: Language): CloudEventPage {
    const { items, total } = this.eventRows.page(query);
    return {
      items: items.map((row) => {
        const view = viewOf(row);
        return view.reason === undefined ? view : { ...view, reason: reasonText(view.reason, lang) };
      }),
      total,
      counts: this.eventRows.counts(),
    };
  }

  retry(id: string): ReturnType<typeof viewOf> {
    const row = this.eventRows.find(id);
    if (!row) throw new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.notFound', {}, { status: 404 });
    if (row.status !== 'FAILED') throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.cloud.retryNotFailed');
    this.eventRows.requeue(row);
    this.events.retried();
    return viewOf(this.eventRows.find(id)!);
  }

  // ---- local changes -------------------------------------------------------------------------

  deviceCreated(deviceId: string): void {
    const device = this.remember(deviceId);
    if (!device) return;
    this.record({ entityId: deviceId, entityName: device.name, entityType: 'DEVICE', event: 'CREATED', topic: 'v1/gateway/connect', body: { device: device.name, type: device.type } });
  }

  deviceUpdated(deviceId: string): void {
    const before = this.known.get(deviceId);
    const device = this.remember(deviceId);
    if (!device || !before) return;
    if (before.name !== device.name) {
      // ThingsBoard's gateway API has no rename: the cloud learns the device under its new name.
      this.record({ entityId: deviceId, entityName: device.name, entityType: 'DEVICE', event: 'RENAMED', topic: 'v1/gateway/connect', body: { device: device.name, type: device.type } });
    } else if (before.type !== device.type) {
      this.record({ entityId: deviceId, entityName: device.name, entityType: 'DEVICE_PROFILE', event: 'PRODUCT_CHANGED', topic: 'v1/gateway/connect', body: { device: device.name, type: device.type } });
    }
  }

  deviceDeleted(deviceId: string): void {
    const device = this.known.get(deviceId);
    this.known.delete(deviceId);
    this.uplink.forget(deviceId);
    if (!device) return;
    this.record({ entityId: deviceId, entityName: device.name, entityType: 'DEVICE', event: 'DELETED', topic: 'v1/gateway/disconnect', body: { device: device.name } });
  }

  deviceState(deviceId: string, online: boolean): void {
    const device = this.known.get(deviceId) ?? this.remember(deviceId);
    if (!device) return;
    this.record(
      online
        ? { entityId: deviceId, entityName: device.name, entityType: 'DEVICE', event: 'CONNECTED', topic: 'v1/gateway/connect', body: { device: device.name, type: device.type } }
        : { entityId: deviceId, entityName: device.name, entityType: 'DEVICE', event: 'DISCONNECTED', topic: 'v1/gateway/disconnect', body: { device: device.name } },
    );
  }

  clientAttributes(deviceId: string, values: readonly { key: string; value: unknown }[]): void {
    const device = this.known.get(deviceId);
    if (!device) return;
    const data: Record<string, unknown> = {};
    for (const v of values) data[v.key] = v.value;
    this.record({ entityId: deviceId, entityName: device.name, entityType: 'ATTRIBUTE', event: 'ATTRIBUTES_UPDATED', topic: 'v1/gateway/attributes', body: { [device.name]: data } });
  }

  telemetryStored(deviceId: string, entries: readonly TelemetryEntry[]): void {
    if (this.connection.status === 'NOT_CONFIGURED') return;
    this.uplink.stored(deviceId, entries);
    // The backlog grows while disconnected: the state page shows it.
    if (this.connection.status !== 'CONNECTED') this.announceSoon();
  }

  /** A device event was stored: it goes as telemetry of its identifier, after any backlog of events. */
  eventStored(): void {
    if (this.connection.status === 'NOT_CONFIGURED') return;
    this.eventUplink.schedule();
    if (this.connection.status !== 'CONNECTED') this.announceSoon();
  }

  messageReceived(): void {
    this.load.messageReceived();
  }

  // ---- internals -----------------------------------------------------------------------------

  private record(e: NewCloudEvent): void {
    // Standalone: nothing is owed to a cloud that does not exist.
    if (this.connection.status === 'NOT_CONFIGURED') return;
    this.events.record(e);
  }

  private remember(deviceId: string): KnownDevice | null {
    try {
      const d = this.deps.services.devices.get(deviceId);
      const known = { name: d.name, type: d.productName, createdTime: d.createdTime };
      this.known.set(deviceId, known);
      return known;
    } catch {
      return null;
    }
  }

  private learnDevices(): void {
    for (let page = 1; ; page++) {
      const { items, total } = this.deps.services.devices.page({ page, pageSize: DEVICE_PAGE } as Parameters<Services['devices']['page']>[0]);
      for (const d of items) this.known.set(d.id, { name: d.name, type: d.productName, createdTime: d.createdTime });
      if (page * DEVICE_PAGE >= total || items.length === 0) break;
    }
  }

  private since(): number {
    return readSetting<{ since: number }>(this.deps.core.db, SETTING_ID)?.value.since ?? Date.now();
  }

  private connected(client: MqttClient): void {
    this.client = client;
    this.downlink.subscribe(client);
    this.events.connected(client);
    this.uplink.connected(client);
    this.eventUplink.connected(client);
    if (this.loadTimer) clearInterval(this.loadTimer);
    this.loadTimer = setInterval(() => this.reportLoad(), this.loadEveryMs);
    this.loadTimer.unref();
    this.reportLoad();
  }

  private disconnected(): void {
    this.client = null;
    if (this.loadTimer) clearInterval(this.loadTimer);
    this.loadTimer = null;
    this.events.disconnected();
    this.uplink.disconnected();
    this.eventUplink.disconnected();
  }

  private reportLoad(): void {
    this.client?.publish(GATEWAY_TELEMETRY_TOPIC, JSON.stringify(this.load.reading()), { qos: 1 });
  }

  private countSent(n: number): void {
    this.progress.countSent(n);
    this.announceSoon();
  }

  /** Acknowledgements come by the thousand: subscribers hear of them at most once a second. */
  private announceSoon(): void {
    if (this.announceTimer) return;
    this.announceTimer = setTimeout(() => {
      this.announceTimer = null;
      this.announce();
    }, ANNOUNCE_EVERY_MS);
    this.announceTimer.unref();
  }

  private announce(): void {
    for (const listener of this.stateListeners) {
      try {
        listener();
      } catch (err) {
        this.deps.log.warn({ err }, 'edge state listener failed');
      }
    }
  }
}
