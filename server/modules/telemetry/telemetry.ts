/**
 * The telemetry pipeline built once per app: repository, batched writer, service and the daily
 * retention job. `close` commits what is queued and stops the job (before the database closes).
 */
import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { Core } from '../../core.ts';
import type { DeviceManagement } from '../device/device-management.ts';
import type { ModelChecks } from './model-checks.ts';
import { TelemetryRepository } from './telemetry-repository.ts';
import { TelemetryService } from './telemetry-service.ts';
import { TelemetryWriter, type WriterOptions } from './telemetry-writer.ts';

/** Daily at 03:17 local time: a quiet hour, off the full hour other jobs like. */
export const RETENTION_SCHEDULE = '17 3 * * *';

export interface Telemetry {
  service: TelemetryService;
  writer: TelemetryWriter;
  close(): void;
}

export interface TelemetryOptions {
  core: Pick<Core, 'db' | 'bus'>;
  devices: DeviceManagement;
  checks: ModelChecks;
  log: FastifyBaseLogger;
  writer?: Partial<WriterOptions>;
}

export function createTelemetry(options: TelemetryOptions): Telemetry {
  const { core, devices, checks, log } = options;
  const rows = new TelemetryRepository(core.db);
  const writer = new TelemetryWriter({ db: core.db, bus: core.bus, rows, log, options: options.writer });
  const service = new TelemetryService({ db: core.db, rows, writer, checks, devices: devices.devices, log });
  const retention = new Cron(
    RETENTION_SCHEDULE,
    { protect: true, unref: true, catch: (err) => log.error({ err }, 'telemetry retention failed') },
    async () => {
      await service.runRetention();
    },
  );
  const offDeleted = core.bus.on('device.deleted', ({ deviceId }) => {
    service.purgeDevice(deviceId).catch((err: unknown) => log.error({ err, deviceId }, 'purging a deleted device failed'));
  });
  return {
    service,
    writer,
    close: () => {
      offDeleted();
      retention.stop();
      service.stop();
      writer.close();
    },
  };
}
