/**
 * Device OTA: firmware per product delivered over ThingsBoard's device firmware protocol
 * (server/contract/ota.ts). The transport serves the chunks from the package this module gives it
 * for a device; devices' `fw_state` reports come in as telemetry (or client attributes).
 */
import { join } from 'node:path';
import { defineModule } from '../../module.ts';
import m0115 from './migrations/0115-ota.sql';
import { OtaFiles } from './ota-files.ts';
import { otaLive } from './ota-live.ts';
import { registerOtaRoutes } from './ota-routes.ts';
import { OtaService } from './ota-service.ts';

declare module '../../module.ts' {
  interface Services {
    ota: OtaService;
  }
  interface Tuning {
    /** How often queued devices are checked against the rate limit (default 1 s). */
    otaTickMs?: number;
  }
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** A device's OTA progress changed (queued, notified, reported a `fw_state`, package deleted). */
    'ota.deviceChanged': { packageId: string; deviceId: string };
  }
}

export const otaModule = defineModule({
  name: 'ota',
  needs: ['devices', 'products', 'sharedAttributes', 'transport'],
  migrations: [{ name: '0115-ota', sql: m0115 }],
  apiTags: { ota: "Device firmware (OTA) per product: upload with checksum, assignment under a rate limit, ThingsBoard's device firmware protocol" },
  build: ({ core, tuning, services, onClose }) => {
    const { config, bus } = core;
    const files = new OtaFiles(join(config.dataDir, 'ota'), config.minFreeDiskMb * 1024 * 1024);
    const ota = new OtaService({ ...services, db: core.db, announce: (event, payload) => bus.emit(event, payload), files, tickMs: tuning.otaTickMs ?? 1000 });
    services.transport.setPackageSource((deviceId, kind) => (kind === 'fw' ? ota.packageFor(deviceId) : null));
    bus.on('telemetry.stored', ({ deviceId, entries }) => ota.reported(deviceId, entries));
    bus.on('attributes.updated', ({ deviceId, scope, values }) => {
      if (scope === 'CLIENT_SCOPE') ota.reported(deviceId, values);
    });
    bus.on('product.deleted', () => ota.pruneFiles());
    onClose(() => ota.stop());
    return { ota };
  },
  live: otaLive,
  routes: registerOtaRoutes,
  start: ({ ota }) => ota.start(),
});
