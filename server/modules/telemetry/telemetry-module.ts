/**
 * The telemetry pipeline: values, attributes and events devices send, checked against the
 * published thing model, written in batches (a QoS 1 PUBACK waits for the commit), history
 * queries (rows and compressed history blocks), the compactor and the daily retention job.
 */
import { Cron } from 'croner';
import type { AttributeValue, TelemetryEntry } from '../../contract/telemetry.ts';
import { defineModule } from '../../module.ts';
import m0005 from './migrations/0005-telemetry.sql';
import m0007 from './migrations/0007-telemetry-history-layout.sql';
import m0012 from './migrations/0012-telemetry-history-blocks.sql';
import m0013 from './migrations/0013-telemetry-staging.sql';
import { HistoryCompactor, type CompactorOptions } from './history-compactor.ts';
import { thingModelChecks } from './model-checks.ts';
import { TelemetryRepository } from './telemetry-repository.ts';
import { registerSharedAttributeRoutes } from './shared-attribute-routes.ts';
import { SharedAttributeService } from './shared-attribute-service.ts';
import { registerTelemetryRoutes } from './telemetry-routes.ts';
import { TelemetryService } from './telemetry-service.ts';
import { TelemetryWriter, type WriterOptions } from './telemetry-writer.ts';

declare module '../../module.ts' {
  interface Services {
    telemetry: TelemetryService;
    sharedAttributes: SharedAttributeService;
  }
  interface Tuning {
    writer?: Partial<WriterOptions>;
    /** History compaction into blocks (history-compactor.ts). */
    compactor?: Partial<CompactorOptions>;
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
  needs: ['devices', 'thingModels'],
  migrations: [
    { name: '0005-telemetry', sql: m0005 },
    { name: '0007-telemetry-history-layout', sql: m0007 },
    { name: '0012-telemetry-history-blocks', sql: m0012 },
    { name: '0013-telemetry-staging', sql: m0013 },
  ],
  apiTags: {
    telemetry: 'Telemetry (ThingsBoard-compatible): latest values, history with aggregation, keys, client and shared attributes; retention',
  },
  build: ({ core, log, tuning, services, onClose }) => {
    const rows = new TelemetryRepository(core.db);
    const writer = new TelemetryWriter({ db: core.db, bus: core.bus, rows, log, options: tuning.writer });
    const compactor = new HistoryCompactor(core.db, rows.blocks, log, tuning.compactor);
    const telemetry = new TelemetryService({
      db: core.db,
      rows,
      writer,
      compactor,
      checks: thingModelChecks(services.thingModels),
      devices: services.devices,
      log,
    });
    const retention = new Cron(
      RETENTION_SCHEDULE,
      { protect: true, unref: true, catch: (err) => log.error({ err }, 'telemetry retention failed') },
      async () => {
        await telemetry.runRetention();
      },
    );
    compactor.start();
    core.bus.on('device.deleted', ({ deviceId }) => {
      telemetry.purgeDevice(deviceId).catch((err: unknown) => log.error({ err, deviceId }, 'purging a deleted device failed'));
    });
    // What is queued is committed before the database closes.
    onClose(() => {
      retention.stop();
      compactor.stop();
      telemetry.stop();
      writer.close();
    });
    const sharedAttributes = new SharedAttributeService({
      db: core.db,
      rows,
      devices: services.devices,
      announce: (event, payload) => core.bus.emit(event, payload),
    });
    return { telemetry, sharedAttributes };
  },
  routes: (app, scope) => {
    registerTelemetryRoutes(app, scope);
    registerSharedAttributeRoutes(app, scope);
  },
});
