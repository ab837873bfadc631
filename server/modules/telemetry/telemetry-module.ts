/**
 * The telemetry pipeline: values, attributes and events devices send, checked against the
 * published thing model, written in batches (a QoS 1 PUBACK waits for the commit), history
 * queries (rows and compressed history blocks), the compactor and the daily retention job.
 */
import { join } from 'node:path';
import { Cron } from 'croner';
import type { AttributeValue, TelemetryEntry } from '../../contract/telemetry.ts';
import { DATABASE_FILE } from '../../lib/data-dir.ts';
import { defineModule } from '../../module.ts';
import { telemetryLive } from './live/telemetry-live.ts';
import m0005 from './migrations/0005-telemetry.sql';
import m0007 from './migrations/0007-telemetry-history-layout.sql';
import m0012 from './migrations/0012-telemetry-history-blocks.sql';
import m0013 from './migrations/0013-telemetry-product-retention.sql';
import { DiskGuard, type DiskGuardOptions } from './disk-guard.ts';
import { ensureIncrementalVacuum, HistoryBudget, type BudgetOptions } from './history-budget.ts';
import { ProductRetentionStore } from './product-retention.ts';
import { registerTelemetryStorageRoutes } from './telemetry-storage-routes.ts';
import { TelemetryStorage } from './telemetry-storage.ts';
import m0014 from './migrations/0014-telemetry-staging.sql';
import m0040 from './migrations/0040-event-record-sequence.sql';
import m0047 from './migrations/0047-telemetry-staging-pack.sql';
import m0048 from './migrations/0048-telemetry-staging-ring.sql';
import { HistoryCompactor, type CompactorOptions } from './history-compactor.ts';
import { TelemetryRepository } from './telemetry-repository.ts';
import { stagingRingOf } from './staging-ring.ts';
import { registerSharedAttributeRoutes } from './shared-attribute-routes.ts';
import { SharedAttributeService } from './shared-attribute-service.ts';
import { registerTelemetryRoutes } from './telemetry-routes.ts';
import { TelemetryService } from './telemetry-service.ts';
import { WriteMeter } from './write-meter.ts';
import { TelemetryWriter, type WriterOptions } from './telemetry-writer.ts';

declare module '../../module.ts' {
  interface Services {
    telemetry: TelemetryService;
    sharedAttributes: SharedAttributeService;
    /** Database size, free disk, the size cap and products' own retention. */
    telemetryStorage: TelemetryStorage;
  }
  interface Tuning {
    writer?: Partial<WriterOptions>;
    /** History compaction into blocks (history-compactor.ts). */
    compactor?: Partial<CompactorOptions>;
    /** Free disk checks (disk-guard.ts): a test supplies `statfs` to control free space. */
    disk?: Partial<DiskGuardOptions>;
    /** The database size cap (history-budget.ts). */
    budget?: Partial<BudgetOptions>;
  }
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** Telemetry entries were committed (one event per device and batch). */
    'telemetry.stored': { deviceId: string; deviceProfileId: string; entries: TelemetryEntry[] };
    /** A device's event (`v1/devices/me/events`) was stored as an event record. */
    'device.eventReported': {
      deviceId: string;
      eventId: string;
      ts: number;
      identifier: string;
      eventType: string;
      params: unknown;
    };
    /**
     * Attributes were stored: client attributes a device reported (after their commit) or shared
     * attributes a user set; `values` holds only the keys of that change.
     */
    'attributes.updated': { deviceId: string; scope: 'CLIENT_SCOPE' | 'SHARED_SCOPE'; values: AttributeValue[] };
    /** Shared attributes were deleted (only keys that existed). */
    'attributes.deleted': { deviceId: string; scope: 'SHARED_SCOPE'; keys: string[] };
  }
}

/** Daily at 03:17 local time: a quiet hour, off the full hour other jobs like. */
export const RETENTION_SCHEDULE = '17 3 * * *';

export const telemetryModule = defineModule({
  name: 'telemetry',
  needs: ['devices', 'thingModels', 'products'],
  migrations: [
    { name: '0005-telemetry', sql: m0005 },
    { name: '0007-telemetry-history-layout', sql: m0007 },
    { name: '0012-telemetry-history-blocks', sql: m0012 },
    { name: '0013-telemetry-product-retention', sql: m0013 },
    { name: '0014-telemetry-staging', sql: m0014 },
    { name: '0040-event-record-sequence', sql: m0040 },
    { name: '0047-telemetry-staging-pack', sql: m0047 },
    { name: '0048-telemetry-staging-ring', sql: m0048 },
  ],
  apiTags: {
    telemetry: 'Telemetry (ThingsBoard-compatible): latest values, history with aggregation, keys, client and shared attributes; retention',
  },
  build: ({ core, log, tuning, services, onClose }) => {
    const rows = new TelemetryRepository(core.db);
    const { commitIntervalMs, commitBurst, commitBatch } = core.config;
    const writerOptions = { commitIntervalMs, commitBurst, commitBatch, ...tuning.writer };
    const writer = new TelemetryWriter({ db: core.db, bus: core.bus, rows, log, options: writerOptions, blockPoints: tuning.compactor?.blockPoints });
    const compactor = new HistoryCompactor({ db: core.db, blocks: rows.blocks, log, options: tuning.compactor });
    const MB = 1024 * 1024;
    const { historyMaxMb, minFreeDiskMb, dataDir } = core.config;
    ensureIncrementalVacuum(core.db, join(dataDir, DATABASE_FILE), minFreeDiskMb * MB, log);
    const budget = new HistoryBudget({
      db: core.db,
      rows,
      file: join(dataDir, DATABASE_FILE),
      maxBytes: historyMaxMb === null ? null : historyMaxMb * MB,
      log,
      moveStaged: () => writer.moveStaged(),
      options: tuning.budget,
    });
    const disk = new DiskGuard({ dir: dataDir, minFreeBytes: minFreeDiskMb * MB, log, options: tuning.disk });
    const productRetention = new ProductRetentionStore(core.db);
    const writes = new WriteMeter();
    core.bus.on('message.received', () => writes.counted(1));
    const telemetry = new TelemetryService({
      db: core.db,
      rows,
      writer,
      compactor,
      checks: services.thingModels.deviceData,
      devices: services.devices,
      log,
      disk,
      databaseFile: core.databaseFile,
      budget,
      productRetention,
    });
    const telemetryStorage = new TelemetryStorage({
      rows,
      budget,
      disk,
      productRetention,
      products: services.products,
      devices: services.devices,
      retentionDays: () => telemetry.settings().telemetryRetentionDays,
      writes,
    });
    const retention = new Cron(
      RETENTION_SCHEDULE,
      { protect: true, unref: true, catch: (err) => log.error({ err }, 'telemetry retention failed') },
      async () => {
        await telemetry.runRetention();
      },
    );
    compactor.start();
    disk.start();
    budget.start();
    core.bus.on('product.deleted', ({ productId }) => telemetryStorage.forgetProduct(productId));
    core.bus.on('device.deleted', ({ deviceId }) => {
      telemetry.purgeDevice(deviceId).catch((err: unknown) => log.error({ err, deviceId }, 'purging a deleted device failed'));
    });
    // A copy of the database holds no staged values (the ring stays beside the original): move them in first.
    core.bus.on('database.copying', () => writer.moveStaged());
    // What is queued is committed before the database closes.
    onClose(() => {
      retention.stop();
      compactor.stop();
      disk.stop();
      budget.stop();
      writes.close();
      telemetry.stop();
      writer.close();
      stagingRingOf(core.db).close();
    });
    const sharedAttributes = new SharedAttributeService({
      db: core.db,
      rows,
      devices: services.devices,
      announce: (event, payload) => core.bus.emit(event, payload),
    });
    return { telemetry, sharedAttributes, telemetryStorage };
  },
  live: telemetryLive,
  routes: (app, scope) => {
    registerTelemetryRoutes(app, scope);
    registerSharedAttributeRoutes(app, scope);
    registerTelemetryStorageRoutes(app, scope);
  },
});
