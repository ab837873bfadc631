/** The signed-in user's own account: info, profile, password change. */
import { defineModule } from '../../module.ts';
import { registerUserRoutes } from './user-routes.ts';
import { UserService } from './user-service.ts';

declare module '../../module.ts' {
  interface Services {
    profiles: UserService;
  }
}

export const userModule = defineModule({
  name: 'user',
  needs: ['accounts'],
  apiTags: { user: 'The signed-in user: profile and password' },
  build: ({ services }) => ({ profiles: new UserService(services.accounts) }),
  routes: registerUserRoutes,
});
