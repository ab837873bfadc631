/** The gateway's licence: trusted keys, the serial number, the installed licence and its status. */
import type { LicenseStatus } from '../../contract/license.ts';
import { defineModule } from '../../module.ts';
import { registerLicenseRoutes } from './license-routes.ts';
import { LicenseService } from './license-service.ts';

declare module '../../module.ts' {
  interface Services {
    license: LicenseService;
  }
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    'license.changed': { status: LicenseStatus };
  }
}

export const licenseModule = defineModule({
  name: 'license',
  needs: [],
  apiTags: { license: 'Licence upload and state' },
  build: ({ core }) => ({ license: new LicenseService(core) }),
  routes: registerLicenseRoutes,
});
