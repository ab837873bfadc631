/**
 * HTTP for devices, their credentials, CSV/XLSX import and batch generation (server/contract/device.ts,
 * credentials.ts, device-import.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { credentialsRoutes } from '../../contract/credentials.ts';
import { deviceImportRoutes, XLSX_CONTENT_TYPE } from '../../contract/device-import.ts';
import { deviceRoutes } from '../../contract/device.ts';
import { roleHolds } from '../../contract/permissions.ts';
import { fieldErrorFormatter } from '../../lib/field-errors.ts';
import { langFromAcceptLanguage } from '../../lib/messages.ts';
import { readUploadedFile, registerUploads } from '../../lib/upload.ts';
import type { Services } from '../../module.ts';
import { deviceFieldKeys } from './device-rules.ts';

const CSV_TYPE = 'text/csv; charset=utf-8';

export async function registerDeviceRoutes(
  fastify: FastifyInstance,
  { devices, credentials, deviceImports: imports, deviceBatches: batches }: Pick<Services, 'devices' | 'credentials' | 'deviceImports' | 'deviceBatches'>,
): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const schemaErrorFormatter = fieldErrorFormatter({
    ...deviceFieldKeys,
    count: 'error.field.batchCount',
    aliasPrefix: 'error.field.aliasPrefix',
  });

  await registerUploads(app);

  app.route({ ...deviceRoutes.list, schemaErrorFormatter, handler: async (request) => devices.page(request.query, request.deviceScope) });
  app.route({ ...deviceRoutes.get, schemaErrorFormatter, handler: async (request) => devices.get(request.params.id) });
  app.route({ ...deviceRoutes.create, schemaErrorFormatter, handler: async (request) => devices.create(request.body) });
  app.route({
    ...deviceRoutes.update,
    schemaErrorFormatter,
    handler: async (request) =>
      devices.update(request.body, { mayChangeRegistration: !!request.user && roleHolds(request.user.role, 'device:credentials:update') }),
  });
  app.route({ ...deviceRoutes.delete, schemaErrorFormatter, handler: async (request) => devices.delete(request.body.ids) });
  app.route({
    ...deviceRoutes.collect,
    schemaErrorFormatter,
    handler: async (request) => devices.setCollect(request.params.id, request.body.isCollect),
  });
  app.route({
    ...deviceRoutes.public,
    schemaErrorFormatter,
    handler: async (request) => devices.setPublic(request.params.id, request.body.isPublic),
  });
  app.route({
    ...deviceRoutes.location,
    schemaErrorFormatter,
    handler: async (request) => devices.setLocation(request.params.id, request.body),
  });

  app.route({ ...credentialsRoutes.get, schemaErrorFormatter, handler: async (request) => credentials.get(request.params.id) });
  app.route({
    ...credentialsRoutes.update,
    schemaErrorFormatter,
    handler: async (request) => credentials.update(request.params.id, request.body),
  });
  app.route({
    ...credentialsRoutes.regenerate,
    schemaErrorFormatter,
    handler: async (request) => credentials.regenerate(request.params.id),
  });

  app.route({
    ...deviceImportRoutes.preview,
    handler: async (request) => {
      const { filename, content } = await readUploadedFile(request);
      return imports.preview(filename, content);
    },
  });
  app.route({
    ...deviceImportRoutes.commit,
    schemaErrorFormatter,
    handler: async (request) => imports.commit(request.body, langFromAcceptLanguage(request.headers['accept-language'])),
  });
  app.route({
    ...deviceImportRoutes.rejectedCsv,
    schemaErrorFormatter,
    handler: async (request, reply) => {
      const lang = langFromAcceptLanguage(request.headers['accept-language']);
      if (request.query.format === 'xlsx') {
        const xlsx = await imports.rejectedXlsx(request.params.importId, lang);
        return reply.type(XLSX_CONTENT_TYPE).header('content-disposition', 'attachment; filename="rejected-rows.xlsx"').send(xlsx);
      }
      const csv = imports.rejectedCsv(request.params.importId, lang);
      return reply.type(CSV_TYPE).header('content-disposition', 'attachment; filename="rejected-rows.csv"').send(csv);
    },
  });
  app.route({ ...deviceImportRoutes.batch, schemaErrorFormatter, handler: async (request) => batches.generate(request.body) });
  app.route({
    ...deviceImportRoutes.batchCsv,
    schemaErrorFormatter,
    handler: async (request, reply) => {
      const csv = batches.csv(request.params.batchId);
      return reply.type(CSV_TYPE).header('content-disposition', `attachment; filename="batch-${request.params.batchId}.csv"`).send(csv);
    },
  });
}
