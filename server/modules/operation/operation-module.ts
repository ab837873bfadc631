/** Operation management's content: banners on the login page, guide entries on the workbench. Branding is the platform module's. */
import { defineModule } from '../../module.ts';
import { OperationService } from './operation-service.ts';
import { registerOperationRoutes } from './operation-routes.ts';
import m0110 from './migrations/0110-operation-entry.sql';

declare module '../../module.ts' {
  interface Services {
    operation: OperationService;
  }
}

export const operationModule = defineModule({
  name: 'operation',
  needs: [],
  migrations: [{ name: '0110-operation-entry', sql: m0110 }],
  apiTags: { operation: 'Operation management: login-page banners and workbench guide entries' },
  build: ({ core }) => ({ operation: new OperationService(core.db) }),
  routes: registerOperationRoutes,
});
