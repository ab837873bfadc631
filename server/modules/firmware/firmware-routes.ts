/**
 * HTTP for firmware updates. The upload is a multipart stream handed to the service as it
 * arrives (a package is ~40 MB: never read whole into memory); the apply answers 202 and the
 * restart is announced once that answer has left.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { FIRMWARE_MAX_BYTES, firmwareRoutes } from '../../contract/firmware.ts';
import { uploadFileRequired } from '../../lib/upload.ts';
import type { Services } from '../../module.ts';

const FIELD = 'file';

export async function registerFirmwareRoutes(fastify: FastifyInstance, { firmware }: Pick<Services, 'firmware'>): Promise<void> {
  await fastify.register(multipart, { limits: { fileSize: FIRMWARE_MAX_BYTES, files: 1, fields: 2, fieldSize: 1024, parts: 3, headerPairs: 50 } });
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({ ...firmwareRoutes.list, handler: async () => firmware.list() });

  app.route({
    ...firmwareRoutes.upload,
    handler: async (request) => {
      if (!request.isMultipart()) throw uploadFileRequired(FIELD);
      const declared = Number(request.headers['content-length'] ?? 0) || 0;
      const part = await request.file();
      if (!part) throw uploadFileRequired(FIELD);
      if (part.fieldname !== FIELD) {
        part.file.resume();
        throw uploadFileRequired(FIELD);
      }
      return firmware.upload(part.file, declared, () => part.file.truncated);
    },
  });

  app.route({
    ...firmwareRoutes.apply,
    handler: async (request, reply) => {
      const { id } = request.params;
      const staged = await firmware.stage(id, request.body.allowDowngrade === true);
      if (staged.downgrade) request.log.warn({ packageId: id, version: staged.version }, 'firmware: downgrade allowed by the caller');
      // The restart closes the HTTP server: only once this answer is out.
      reply.raw.once('finish', () => firmware.announceStaged(id, staged.version));
      return reply.code(202).send({ id, version: staged.version, restarting: true });
    },
  });
}
