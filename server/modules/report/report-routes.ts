/** HTTP for reports, their runs and the runs' files (server/contract/report.ts). */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { XLSX_CONTENT_TYPE } from '../../contract/device-import.ts';
import { reportRoutes as r } from '../../contract/report.ts';
import { fieldErrorFormatter, notFound, type FieldKeys } from '../../lib/field-errors.ts';
import { langFromAcceptLanguage } from '../../lib/messages.ts';
import type { Services } from '../../module.ts';

const fieldKeys: FieldKeys = {
  name: 'error.report.name',
  series: 'error.report.series',
  'schedule.monthDays': 'error.report.monthDays',
  'schedule.weekdays': 'error.report.weekdays',
  'schedule.hours': 'error.report.hours',
  'schedule.timeZone': 'error.report.timeZone',
  interval: 'error.report.interval',
};

const contentTypes = { xlsx: XLSX_CONTENT_TYPE, csv: 'text/csv; charset=utf-8' } as const;

export function registerReportRoutes(fastify: FastifyInstance, { reports: service }: Pick<Services, 'reports'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const schemaErrorFormatter = fieldErrorFormatter(fieldKeys);
  const lang = (headers: { 'accept-language'?: string }) => langFromAcceptLanguage(headers['accept-language']);

  app.route({ ...r.list, handler: async (request) => service.page(request.query, request.deviceScope) });
  app.route({ ...r.get, handler: async (request) => service.get(request.params.id, request.deviceScope) });
  app.route({ ...r.create, schemaErrorFormatter, handler: async (request) => service.create(request.body, request.deviceScope, lang(request.headers)) });
  app.route({ ...r.update, schemaErrorFormatter, handler: async (request) => service.update(request.body, request.deviceScope, lang(request.headers)) });
  app.route({ ...r.delete, handler: async (request) => service.delete(request.body.ids, request.deviceScope) });
  app.route({ ...r.run, handler: async (request) => service.runNow(request.params.id, request.body, request.deviceScope) });
  app.route({ ...r.runs, handler: async (request) => service.runs(request.params.id, request.query, request.deviceScope) });
  app.route({ ...r.deleteRuns, handler: async (request) => service.deleteRuns(request.body.ids, request.deviceScope) });
  app.route({
    ...r.file,
    handler: async (request, reply) => {
      const run = service.run(request.params.id, request.deviceScope);
      const { format } = request.query;
      // A run the disk budget removed while the list was open.
      if (!service.files.exists(run.id, format)) throw notFound();
      const name = `${service.get(run.reportId, request.deviceScope).name}-${new Date(run.endTs).toISOString().slice(0, 16).replace(/[-:T]/g, '')}.${format}`;
      return reply
        .type(contentTypes[format])
        .header('content-disposition', `attachment; filename="report.${format}"; filename*=UTF-8''${encodeURIComponent(name)}`)
        .send(await readFile(service.files.pathOf(run.id, format)));
    },
  });
}
