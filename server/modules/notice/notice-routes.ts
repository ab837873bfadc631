/** HTTP for notices (server/contract/notice.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { noticeRoutes } from '../../contract/notice.ts';
import { fieldErrorFormatter, type FieldKeys } from '../../lib/field-errors.ts';
import type { Services } from '../../module.ts';

const noticeFieldKeys: FieldKeys = {
  title: 'error.notice.title',
  content: 'error.notice.content',
  receiverIds: 'error.notice.receiverUnknown',
};

export function registerNoticeRoutes(fastify: FastifyInstance, { notices: service }: Pick<Services, 'notices'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const schemaErrorFormatter = fieldErrorFormatter(noticeFieldKeys);

  app.route({ ...noticeRoutes.list, schemaErrorFormatter, handler: async (request) => service.page(request.query) });
  app.route({ ...noticeRoutes.create, schemaErrorFormatter, handler: async (request) => service.create(request.body, request.user!) });
  app.route({ ...noticeRoutes.update, schemaErrorFormatter, handler: async (request) => service.update(request.body) });
  app.route({ ...noticeRoutes.delete, schemaErrorFormatter, handler: async (request) => service.delete(request.body.ids) });
  app.route({ ...noticeRoutes.publish, handler: async (request) => service.publish(request.params.id) });
  app.route({ ...noticeRoutes.me, schemaErrorFormatter, handler: async (request) => service.mine(request.user!, request.query) });
  app.route({
    ...noticeRoutes.read,
    handler: async (request) => {
      service.markRead(request.user!, request.params.id);
      return { ok: true };
    },
  });
}
