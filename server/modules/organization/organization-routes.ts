/** HTTP for the organization tree (server/contract/organization.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { organizationRoutes } from '../../contract/organization.ts';
import { fieldErrorFormatter, type FieldKeys } from '../../lib/field-errors.ts';
import type { Services } from '../../module.ts';

/** Schema failures of organization bodies and queries, by field. */
export const organizationFieldKeys: FieldKeys = { name: 'error.field.name', sort: 'error.field.sort' };

export function registerOrganizationRoutes(fastify: FastifyInstance, { organizations: service }: Pick<Services, 'organizations'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const schemaErrorFormatter = fieldErrorFormatter(organizationFieldKeys);

  // A customer sees the organizations of their device scope only, never another's name.
  app.route({ ...organizationRoutes.tree, handler: async (request) => service.tree(request.deviceScope) });
  app.route({ ...organizationRoutes.list, schemaErrorFormatter, handler: async (request) => service.page(request.query, request.deviceScope) });
  app.route({ ...organizationRoutes.get, schemaErrorFormatter, handler: async (request) => service.get(request.params.id, request.deviceScope) });
  app.route({ ...organizationRoutes.create, schemaErrorFormatter, handler: async (request) => service.create(request.body) });
  app.route({ ...organizationRoutes.update, schemaErrorFormatter, handler: async (request) => service.update(request.body) });
  app.route({ ...organizationRoutes.delete, schemaErrorFormatter, handler: async (request) => service.delete(request.body.ids) });
}
