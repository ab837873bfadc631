/**
 * HTTP for device firmware. The upload is a multipart stream: its text fields come first and are
 * checked by the contract's schema, then the file streams to disk (never read whole into memory).
 */
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Value from 'typebox/value';
import { ErrorCode } from '../../contract/errors.ts';
import { OTA_MAX_BYTES, otaRoutes, OtaUploadFieldsSchema, type OtaUploadFields } from '../../contract/ota.ts';
import { AppError } from '../../lib/app-error.ts';
import { uploadFileRequired } from '../../lib/upload.ts';
import type { Services } from '../../module.ts';

const FIELD = 'file';

/** The text fields that came before the file, as an object the schema checks. */
function fieldsOf(fields: Record<string, unknown>): OtaUploadFields {
  const values: Record<string, string> = {};
  for (const [name, field] of Object.entries(fields)) {
    const one = Array.isArray(field) ? field[0] : field;
    if (one && typeof one === 'object' && 'value' in one && typeof one.value === 'string') values[name] = one.value;
  }
  if (values.checksum === '') delete values.checksum;
  const first = Value.Errors(OtaUploadFieldsSchema, values)[0];
  if (first) {
    const field = first.instancePath.replace(/^\//, '') || String((first.params as { requiredProperties?: string[] }).requiredProperties?.[0] ?? '');
    throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.ota.fields', { reason: `${field}: ${first.message}` }, { details: [{ field, message: first.message }] });
  }
  return values as OtaUploadFields;
}

export async function registerOtaRoutes(fastify: FastifyInstance, { ota, devices }: Pick<Services, 'ota' | 'devices'>): Promise<void> {
  await fastify.register(multipart, { limits: { fileSize: OTA_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 5, headerPairs: 50 } });
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({ ...otaRoutes.list, handler: async (request) => ota.list(request.params.id) });
  app.route({
    ...otaRoutes.upload,
    handler: async (request) => {
      if (!request.isMultipart()) throw uploadFileRequired(FIELD);
      const part = await request.file();
      if (!part) throw uploadFileRequired(FIELD);
      if (part.fieldname !== FIELD) {
        part.file.resume();
        throw uploadFileRequired(FIELD);
      }
      let fields: OtaUploadFields;
      try {
        fields = fieldsOf(part.fields);
      } catch (err) {
        part.file.resume();
        throw err;
      }
      const declaredBytes = Number(request.headers['content-length'] ?? 0) || 0;
      return ota.upload(request.params.id, { fields, fileName: part.filename, body: part.file, declaredBytes, wasTruncated: () => part.file.truncated });
    },
  });
  app.route({
    ...otaRoutes.remove,
    handler: async (request) => {
      ota.remove(request.params.id, request.query.force === true);
      return {};
    },
  });
  app.route({ ...otaRoutes.assign, handler: async (request) => ({ queued: ota.assign(request.params.id, request.body) }) });
  app.route({
    ...otaRoutes.devices,
    handler: async (request) => {
      const scoped = devices.within(request.deviceScope);
      return ota.devices(request.params.id, (id) => scoped.exists(id));
    },
  });
  app.route({ ...otaRoutes.settings, handler: async () => ota.settings() });
  app.route({ ...otaRoutes.saveSettings, handler: async (request) => ota.saveSettings(request.body) });
}
