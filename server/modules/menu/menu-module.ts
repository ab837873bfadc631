/** The console's menu for its back-end menu mode (`GET /api/yt/getMenuList`, server/contract/console-menu.ts). */
import { defineModule } from '../../module.ts';
import { registerMenuRoutes } from './menu-routes.ts';

export const menuModule = defineModule({
  name: 'menu',
  needs: [],
  apiTags: { menu: "The console's menu (back-end menu mode)" },
  build: () => ({}),
  routes: registerMenuRoutes,
});
