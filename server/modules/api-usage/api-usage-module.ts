/** The gateway's API usage state through ThingsBoard's entity data query (server/contract/entity-query.ts). */
import { defineModule } from '../../module.ts';
import { registerApiUsageRoutes } from './api-usage-routes.ts';
import { ApiUsageService } from './api-usage-service.ts';

declare module '../../module.ts' {
  interface Services {
    apiUsage: ApiUsageService;
  }
}

export const apiUsageModule = defineModule({
  name: 'api-usage',
  needs: ['license', 'platform'],
  apiTags: { 'entity-query': "ThingsBoard's entity data query: the gateway's API usage state" },
  build: ({ services }) => ({ apiUsage: new ApiUsageService({ license: services.license, platform: services.platform }) }),
  routes: registerApiUsageRoutes,
});
