/** HTTP for a product's Modbus point table: export (.csv / .xlsx) and import (server/contract/modbus.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { importFormatOf, XLSX_CONTENT_TYPE, type RejectedRow } from '../../contract/device-import.ts';
import { modbusPointColumns, modbusRoutes, POINT_IMPORT_MAX_ROWS, type PointImportResult } from '../../contract/modbus.ts';
import type { ModbusDescriptor, ThingModelItem } from '../../contract/thing-model.ts';
import { ErrorCode } from '../../contract/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import { toCsv } from '../../lib/csv.ts';
import { csvTable, xlsxTable } from '../../lib/uploaded-table.ts';
import { langFromAcceptLanguage, translate } from '../../lib/messages.ts';
import { readUploadedFile, registerUploads } from '../../lib/upload.ts';
import type { Language } from '../../contract/languages.ts';
import type { Services } from '../../module.ts';
import { columnIndex, itemOfRow, pointRow } from './point-table.ts';

const CSV_TYPE = 'text/csv; charset=utf-8';
const PAGE = 100;

type Deps = Pick<Services, 'thingModels' | 'products'>;

function draftProperties(thingModels: Deps['thingModels'], deviceProfileId: string): ThingModelItem[] {
  const out: ThingModelItem[] = [];
  for (let page = 1; ; page++) {
    const { items, total } = thingModels.page(deviceProfileId, { page, pageSize: PAGE, functionType: 'properties' });
    out.push(...items);
    if (out.length >= total || items.length === 0) return out;
  }
}

function importRefusal(key: 'error.import.badType' | 'error.import.empty' | 'error.import.tooManyRows', params: Record<string, number> = {}): AppError {
  const code = key === 'error.import.tooManyRows' ? ErrorCode.LIMIT_EXCEEDED : ErrorCode.BAD_REQUEST_PARAMS;
  return new AppError(code, key, params, { details: [{ field: 'file', key, message: translate('en_US', key, params) }] });
}

async function importPoints(deps: Deps, deviceProfileId: string, fileName: string, bytes: Buffer, lang: Language): Promise<PointImportResult> {
  deps.products.get(deviceProfileId);
  const format = importFormatOf(fileName);
  if (!format) throw importRefusal('error.import.badType');
  const [header, ...rows] = format === 'xlsx' ? await xlsxTable(bytes) : csvTable(bytes);
  if (!header || rows.length === 0) throw importRefusal('error.import.empty');
  if (rows.length > POINT_IMPORT_MAX_ROWS) throw importRefusal('error.import.tooManyRows', { max: POINT_IMPORT_MAX_ROWS });
  const index = columnIndex(header);
  const existing = new Map(draftProperties(deps.thingModels, deviceProfileId).map((i) => [i.identifier, i]));
  const result: PointImportResult = { created: 0, updated: 0, rejected: [] };
  rows.forEach((row, i) => {
    const identifier = row[index.get('identifier') ?? -1]?.trim() ?? '';
    const current = existing.get(identifier);
    const body = itemOfRow(deviceProfileId, row, index, current?.functionJson.dataType ? { dataType: current.functionJson.dataType } : undefined);
    const reject = (reasons: RejectedRow['reasons']) => result.rejected.push({ row: i + 2, name: identifier, reasons });
    if (Array.isArray(body)) {
      reject(body.map((p) => ({ field: p.field, key: p.key, message: translate(lang, p.key, { column: p.field }) })));
      return;
    }
    try {
      if (current) {
        deps.thingModels.update({ ...body, id: current.id });
        result.updated++;
      } else {
        const created = deps.thingModels.create(body);
        existing.set(created.identifier, created);
        result.created++;
      }
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const details = err.details?.length ? err.details : [{ field: '', key: err.key, message: '' }];
      reject(details.map((d) => ({ field: d.field.replace(/^body\./, ''), key: d.key ?? err.key, message: translate(lang, d.key ?? err.key, err.params) })));
    }
  });
  return result;
}

export async function registerPointTableRoutes(fastify: FastifyInstance, deps: Deps): Promise<void> {
  await fastify.register(async (scope) => {
    await registerUploads(scope);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    app.route({
      ...modbusRoutes.exportPoints,
      handler: async (request, reply) => {
        const id = request.params.id;
        deps.products.get(id);
        const rows = deps.thingModels
          .exportTsl(id, false)
          .properties.flatMap((p) => (p.extensionDesc ? [pointRow({ ...p, extensionDesc: p.extensionDesc as ModbusDescriptor })] : []));
        const header = [...modbusPointColumns];
        if (request.query.format === 'xlsx') {
          const { writeXlsx } = await import('../../lib/xlsx.ts');
          const xlsx = await writeXlsx('points', header, rows);
          return reply.type(XLSX_CONTENT_TYPE).header('content-disposition', 'attachment; filename="modbus-points.xlsx"').send(xlsx);
        }
        return reply.type(CSV_TYPE).header('content-disposition', 'attachment; filename="modbus-points.csv"').send(toCsv(header, rows));
      },
    });
    app.route({
      ...modbusRoutes.importPoints,
      handler: async (request) => {
        const { filename, content } = await readUploadedFile(request);
        return importPoints(deps, request.params.id, filename, content, langFromAcceptLanguage(request.headers['accept-language']));
      },
    });
  });
}
