/** HTTP for uploads (multipart, 5 MB) and downloads of stored files. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ossRoutes } from '../../contract/oss.ts';
import { readUploadedFile, registerUploads } from '../../lib/upload.ts';
import type { Services } from '../../module.ts';

/** Content-addressed names never change content, so browsers may keep them for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export async function registerOssRoutes(fastify: FastifyInstance, { files: service }: Pick<Services, 'files'>): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  await registerUploads(app);

  app.route({
    ...ossRoutes.upload,
    handler: async (request) => {
      const { filename, content } = await readUploadedFile(request);
      return service.store(request.user!, filename, content);
    },
  });

  app.route({
    ...ossRoutes.remove,
    handler: async (request) => {
      service.remove(request.user!, request.query.deleteFilePath);
      return { ok: true };
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
