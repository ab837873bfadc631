/** Firmware updates of the gateway: signed packages uploaded, verified, staged and applied (docs/FIRMWARE.md). */
import { defineModule } from '../../module.ts';
import { firmwareTrustedKeys } from '../../lib/firmware/firmware-keys.ts';
import { firmwarePaths } from '../../lib/firmware/firmware-state.ts';
import { FirmwarePackages } from './firmware-packages.ts';
import { FirmwareService } from './firmware-service.ts';
import { registerFirmwareRoutes } from './firmware-routes.ts';

declare module '../../module.ts' {
  interface Services {
    firmware: FirmwareService;
  }
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** A package was staged as the next start's trial: the process restarts into it (server/main.ts). */
    'firmware.staged': { packageId: string; version: string };
  }
}

const MB = 1024 * 1024;

export const firmwareModule = defineModule({
  name: 'firmware',
  needs: [],
  apiTags: { firmware: 'Firmware of the gateway: signed packages, staged and applied with automatic rollback' },
  build: ({ core }) => {
    const { dataDir, minFreeDiskMb, firmwarePublicKeys } = core.config;
    const paths = firmwarePaths(dataDir);
    const minFreeBytes = minFreeDiskMb * MB;
    const packages = new FirmwarePackages({ paths, trustedKeys: firmwareTrustedKeys(core.embeddedFirmwareKeys, firmwarePublicKeys), minFreeBytes });
    return { firmware: new FirmwareService({ db: core.db, announce: core.bus.emit.bind(core.bus), paths, packages, version: core.version, minFreeBytes }) };
  },
  routes: registerFirmwareRoutes,
});
