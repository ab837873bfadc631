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

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** An organization got another parent: the scopes of the customers above it changed. */
    'organization.moved': { organizationId: string };
  }
}

export const organizationModule = defineModule({
  name: 'organization',
  needs: [],
  apiTags: { organization: 'Organization tree (used by every organization field)' },
  build: ({ core }) => ({ organizations: new OrganizationService({
      db: core.db,
      organizations: new OrganizationRepository(core.db),
      moved: (organizationId) => core.bus.emit('organization.moved', { organizationId }),
    }) }),
  routes: registerOrganizationRoutes,
});
