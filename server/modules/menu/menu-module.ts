/** The console's menu for its back-end menu mode (`GET /api/yt/getMenuList`, server/contract/console-menu.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { consoleMenu, menuRoutes } from '../../contract/console-menu.ts';
import { defineModule } from '../../module.ts';
import { menuTree } from './menu-tree.ts';

function registerMenuRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // One tree for everyone: no role gates the menu yet (every entry is without a permission).
  const tree = menuTree(consoleMenu);
  app.route({ ...menuRoutes.list, handler: async () => tree });
}

export const menuModule = defineModule({
  name: 'menu',
  needs: [],
  apiTags: { menu: "The console's menu (back-end menu mode)" },
  build: () => ({}),
  routes: registerMenuRoutes,
});
