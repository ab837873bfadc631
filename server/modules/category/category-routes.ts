/** HTTP for product categories (server/contract/category.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { categoryRoutes } from '../../contract/category.ts';
import { fieldErrorFormatter, type FieldKeys } from '../../lib/field-errors.ts';
import type { Services } from '../../module.ts';

export const categoryFieldKeys: FieldKeys = {
  name: 'error.field.name',
  domain: 'error.field.domain',
  description: 'error.field.description',
};

export function registerCategoryRoutes(fastify: FastifyInstance, { categories: service }: Pick<Services, 'categories'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const schemaErrorFormatter = fieldErrorFormatter(categoryFieldKeys);

  app.route({ ...categoryRoutes.list, schemaErrorFormatter, handler: async (request) => service.page(request.query) });
  app.route({ ...categoryRoutes.options, handler: async () => service.options() });
  app.route({ ...categoryRoutes.get, schemaErrorFormatter, handler: async (request) => service.get(request.params.id) });
  app.route({ ...categoryRoutes.create, schemaErrorFormatter, handler: async (request) => service.create(request.body) });
  app.route({ ...categoryRoutes.update, schemaErrorFormatter, handler: async (request) => service.update(request.body) });
  app.route({ ...categoryRoutes.delete, schemaErrorFormatter, handler: async (request) => service.delete(request.body.ids) });
}
