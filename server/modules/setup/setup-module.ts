/** First-boot provisioning: the setup state and the creation of the first administrator. */
import { defineModule } from '../../module.ts';
import { registerSetupRoutes } from './setup-routes.ts';
import { SetupService } from './setup-service.ts';

declare module '../../module.ts' {
  interface Services {
    setup: SetupService;
  }
}

export const setupModule = defineModule({
  name: 'setup',
  needs: ['accounts', 'license', 'cloud', 'platform'],
  apiTags: { setup: 'First-boot provisioning (X-Setup-Code while no administrator exists)' },
  build: ({ core, services }) => ({ setup: new SetupService({ db: core.db, ...services }) }),
  routes: registerSetupRoutes,
});
