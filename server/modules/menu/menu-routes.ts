/** HTTP of the console's menu for its back-end menu mode (server/contract/console-menu.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { consoleMenu, menuRoutes } from '../../contract/console-menu.ts';
import { menuTree } from './menu-tree.ts';

export function registerMenuRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // One tree for everyone: entries carry their permission, and the console leaves out those the
  // user's permission list (web/stores/permissions.ts) lacks, as in its own menu mode.
  const tree = menuTree(consoleMenu);
  app.route({ ...menuRoutes.list, handler: async () => tree });
}
