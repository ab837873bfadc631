/** HTTP for the audit log (server/contract/audit-log.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auditLogRoutes } from '../../contract/audit-log.ts';
import { fieldErrorFormatter } from '../../lib/field-errors.ts';
import type { Services } from '../../module.ts';

export function registerAuditLogRoutes(fastify: FastifyInstance, { auditLog }: Pick<Services, 'auditLog'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...auditLogRoutes.list, schemaErrorFormatter: fieldErrorFormatter({}), handler: async (request) => auditLog.page(request.query) });
}
