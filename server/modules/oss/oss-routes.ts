/** HTTP for uploads (multipart, 5 MB) and downloads of stored files. */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../../app.ts';
import { ossRoutes } from '../../contract/oss.ts';
import { UPLOAD_MAX_BYTES } from '../../contract/validation.ts';
import { fileRequired, OssService, tooLarge } from './oss-service.ts';

/** Content-addressed names never change content, so browsers may keep them for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export async function ossModule(fastify: FastifyInstance, deps: ModuleDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const service = new OssService(deps.core.db, deps.core.config.dataDir);

  // Registered here, so the multipart parser and its limits apply to this module's routes only.
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 5, headerPairs: 50 },
  });

  app.route({
    ...ossRoutes.upload,
    handler: async (request) => {
      if (!request.isMultipart()) throw fileRequired();
      const part = await request.file();
      if (!part) throw fileRequired();
      if (part.fieldname !== 'file') {
        part.file.resume(); // drain it so the request can finish
        throw fileRequired();
      }
      // toBuffer() throws FST_REQ_FILE_TOO_LARGE past the limit only when the cut falls inside a
      // chunk it is still reading; over a real socket the last chunk can arrive first and it then
      // hands back the first 5 MB silently. `truncated` tells either way.
      const content = await part.toBuffer();
      if (part.file.truncated) throw tooLarge();
      return service.store(part.filename, content);
    },
  });

  app.route({
    ...ossRoutes.file,
    handler: async (request, reply) => {
      const file = service.open(request.params.name);
      return reply
        .header('Cache-Control', IMMUTABLE)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Length', file.size)
        .type(file.mime)
        .send(file.stream);
    },
  });
}
