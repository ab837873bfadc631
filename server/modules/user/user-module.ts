/** The signed-in user's own account: info, profile, password change, console settings. */
import { defineModule } from '../../module.ts';
import m0030 from './migrations/0030-user-settings.sql';
import { registerUserRoutes } from './user-routes.ts';
import { UserService } from './user-service.ts';
import { UserSettingsRepository } from './user-settings-repository.ts';
import { registerUserSettingsRoutes } from './user-settings-routes.ts';

declare module '../../module.ts' {
  interface Services {
    profiles: UserService;
    userSettings: UserSettingsRepository;
  }
}

export const userModule = defineModule({
  name: 'user',
  needs: ['accounts'],
  migrations: [{ name: '0030-user-settings', sql: m0030 }],
  apiTags: { user: 'The signed-in user: profile, password and console settings' },
  build: ({ core, services }) => ({ profiles: new UserService(services.accounts), userSettings: new UserSettingsRepository(core.db) }),
  routes: async (app, scope) => {
    await registerUserRoutes(app, scope);
    registerUserSettingsRoutes(app, scope.userSettings);
  },
});
