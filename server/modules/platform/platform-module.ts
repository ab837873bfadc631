/** Branding: the platform name, logo, icon and slogan the login page and sidebar show. */
import { defineModule } from '../../module.ts';
import { PlatformService } from './platform-service.ts';
import { registerPlatformRoutes } from './platform-routes.ts';

declare module '../../module.ts' {
  interface Services {
    platform: PlatformService;
  }
}

export const platformModule = defineModule({
  name: 'platform',
  needs: [],
  apiTags: { platform: 'Branding and liveness' },
  build: ({ core }) => ({ platform: new PlatformService(core.db) }),
  routes: registerPlatformRoutes,
});
