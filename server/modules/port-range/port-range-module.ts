/** The port range dynamic ports are assigned from (system configuration; server/contract/port-range.ts). */
import { defineModule } from '../../module.ts';
import { PortRangeService } from './port-range-service.ts';
import { registerPortRangeRoutes } from './port-range-routes.ts';

declare module '../../module.ts' {
  interface Services {
    portRange: PortRangeService;
  }
}

export const portRangeModule = defineModule({
  name: 'port-range',
  needs: [],
  apiTags: { 'port-range': 'The range of ports the gateway assigns dynamically (Node-RED instances)' },
  build: ({ core }) => ({ portRange: new PortRangeService(core.db) }),
  routes: registerPortRangeRoutes,
});
