/** HTTP for banners and guide entries (server/contract/operation.ts): the same five calls per kind. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { bannerRoutes, guideRoutes, OPERATION_BODY_LIMIT, type OperationKind } from '../../contract/operation.ts';
import { fieldErrorFormatter } from '../../lib/field-errors.ts';
import type { Services } from '../../module.ts';

const schemaErrorFormatter = fieldErrorFormatter({
  name: 'error.operation.name',
  image: 'error.operation.image',
  url: 'error.operation.url',
  sort: 'error.operation.sort',
  remark: 'error.operation.remark',
});

export function registerOperationRoutes(fastify: FastifyInstance, { operation }: Pick<Services, 'operation'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tables: [OperationKind, typeof bannerRoutes | typeof guideRoutes][] = [['banner', bannerRoutes], ['guide', guideRoutes]];
  for (const [kind, routes] of tables) {
    app.route({ ...routes.list, handler: async (request) => operation.page(kind, request.query) });
    app.route({ ...routes.create, schemaErrorFormatter, bodyLimit: OPERATION_BODY_LIMIT, handler: async (request) => operation.create(kind, request.body) });
    app.route({ ...routes.update, schemaErrorFormatter, bodyLimit: OPERATION_BODY_LIMIT, handler: async (request) => operation.update(kind, request.body) });
    app.route({ ...routes.remove, handler: async (request) => operation.delete(kind, request.body.ids) });
  }
  app.route({ ...bannerRoutes.shown, handler: async () => operation.shown('banner') });
  app.route({ ...guideRoutes.shown, handler: async () => operation.shown('guide') });
}
