/** HTTP for the signed-in user's console settings (server/contract/user-settings.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { userSettingsRoutes } from '../../contract/user-settings.ts';
import { fieldErrorFormatter } from '../../lib/field-errors.ts';
import type { UserSettingsRepository } from './user-settings-repository.ts';

export function registerUserSettingsRoutes(fastify: FastifyInstance, settings: UserSettingsRepository): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...userSettingsRoutes.get, handler: async (request) => settings.get(request.user!.id) });
  app.route({
    ...userSettingsRoutes.put,
    schemaErrorFormatter: fieldErrorFormatter({}),
    handler: async (request) => settings.put(request.user!.id, request.body),
  });
}
