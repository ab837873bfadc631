/** HTTP for products, called device profiles on the wire (server/contract/product.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { productRoutes, thingsBoardProductRoutes } from '../../contract/product.ts';
import { fieldErrorFormatter, type FieldKeys } from '../../lib/field-errors.ts';
import type { Services } from '../../module.ts';

export const productFieldKeys: FieldKeys = {
  name: 'error.field.name',
  image: 'error.field.image',
  description: 'error.field.description',
  protocol: 'error.field.protocol',
};

export function registerProductRoutes(fastify: FastifyInstance, { products: service }: Pick<Services, 'products'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const schemaErrorFormatter = fieldErrorFormatter(productFieldKeys);

  app.route({ ...productRoutes.list, schemaErrorFormatter, handler: async (request) => service.page(request.query, request.productScope) });
  app.route({ ...productRoutes.options, handler: async (request) => service.options(request.productScope) });
  app.route({ ...productRoutes.get, schemaErrorFormatter, handler: async (request) => service.get(request.params.id) });
  app.route({ ...productRoutes.create, schemaErrorFormatter, handler: async (request) => service.create(request.body) });
  app.route({ ...productRoutes.update, schemaErrorFormatter, handler: async (request) => service.update(request.body) });
  app.route({ ...productRoutes.delete, schemaErrorFormatter, handler: async (request) => service.delete(request.body.ids) });
  app.route({ ...productRoutes.publish, schemaErrorFormatter, handler: async (request) => service.publish(request.params.id) });
  app.route({ ...productRoutes.setDefault, schemaErrorFormatter, handler: async (request) => service.setDefault(request.params.id) });
  app.route({
    ...thingsBoardProductRoutes.setDefault,
    schemaErrorFormatter,
    handler: async (request) => service.setDefault(request.params.id),
  });
  app.route({
    ...productRoutes.regenerateProvision,
    schemaErrorFormatter,
    handler: async (request) => service.regenerateProvision(request.params.id),
  });
}
