/** The cloud platform the gateway reports to: its stored configuration. */
import type { CloudConfig } from '../../contract/cloud.ts';
import { defineModule } from '../../module.ts';
import { registerCloudRoutes } from './cloud-routes.ts';
import { CloudService } from './cloud-service.ts';

declare module '../../module.ts' {
  interface Services {
    cloud: CloudService;
  }
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** The cloud configuration was saved: the cloud link reconnects with it. */
    'cloud.configured': { config: CloudConfig };
  }
}

export const cloudModule = defineModule({
  name: 'cloud',
  needs: [],
  apiTags: { cloud: 'Cloud platform configuration (setup code during first boot)' },
  build: ({ core }) => ({ cloud: new CloudService(core.db, (config) => core.bus.emit('cloud.configured', { config })) }),
  routes: registerCloudRoutes,
});
