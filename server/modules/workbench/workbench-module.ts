/** The workbench: device and product counts, the gateway's load, and device message volume. */
import { defineModule } from '../../module.ts';
import { MessageCounter } from './message-counter.ts';
import { registerWorkbenchRoutes } from './workbench-routes.ts';
import { WorkbenchService } from './workbench-service.ts';

declare module '../../module.ts' {
  interface Services {
    workbench: WorkbenchService;
  }
}

export const workbenchModule = defineModule({
  name: 'workbench',
  needs: ['devices', 'products', 'telemetryStorage', 'alarms'],
  apiTags: { workbench: 'Workbench: counts, gateway CPU, memory and disk, message volume' },
  build: ({ core, services }) => ({
    workbench: new WorkbenchService({ ...services, messages: new MessageCounter(core.db, core.bus), dataDir: core.config.dataDir }),
  }),
  routes: registerWorkbenchRoutes,
  close: ({ workbench }) => workbench.close(),
});
