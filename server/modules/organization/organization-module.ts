/** The organization tree every organization field picks from. */
import { defineModule } from '../../module.ts';
import { OrganizationRepository } from './organization-repository.ts';
import { registerOrganizationRoutes } from './organization-routes.ts';
import { OrganizationService } from './organization-service.ts';

declare module '../../module.ts' {
  interface Services {
    organizations: OrganizationService;
  }
}

export const organizationModule = defineModule({
  name: 'organization',
  needs: [],
  apiTags: { organization: 'Organization tree (used by every organization field)' },
  build: ({ core }) => ({ organizations: new OrganizationService({ db: core.db, organizations: new OrganizationRepository(core.db) }) }),
  routes: registerOrganizationRoutes,
});
