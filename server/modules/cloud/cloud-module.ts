/** The cloud platform the gateway reports to: its stored configuration. */
import { defineModule } from '../../module.ts';
import { registerCloudRoutes } from './cloud-routes.ts';
import { CloudService } from './cloud-service.ts';

declare module '../../module.ts' {
  interface Services {
    cloud: CloudService;
  }
}

export const cloudModule = defineModule({
  name: 'cloud',
  needs: ['license'],
  apiTags: { cloud: 'Cloud platform configuration (setup code during first boot)' },
  // The client id is the serial the licence is bound to.
  build: ({ core, services }) => ({ cloud: new CloudService(core.db, services.license.deviceSn) }),
  routes: registerCloudRoutes,
});
