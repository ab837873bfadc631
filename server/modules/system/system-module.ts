/** The gateway itself: basic info read from the machine, its clock, the factory reset (server/contract/system.ts). */
import { defineModule } from '../../module.ts';
import { registerSystemRoutes } from './system-routes.ts';
import { SystemService } from './system-service.ts';
import { timeApplierFor } from './time-applier-for.ts';

declare module '../../module.ts' {
  interface Services {
    system: SystemService;
  }
}

export const systemModule = defineModule({
  name: 'system',
  needs: ['license', 'accounts', 'telemetryStorage', 'auditLog'],
  apiTags: { system: 'The gateway itself: basic info, time zone and NTP, factory reset' },
  build: ({ core, services }) => ({
    system: new SystemService({ ...services, core, time: timeApplierFor(core.config.networkApplier, core.config.dataDir) }),
  }),
  routes: registerSystemRoutes,
  start: ({ system }) => system.finishReset(),
});
