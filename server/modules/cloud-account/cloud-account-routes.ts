/** HTTP of the cloud-account module: the signed-in user in ThingsBoard's shape. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authRoutes } from '../../contract/auth.ts';
import { ErrorCode } from '../../contract/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Services } from '../../module.ts';
import { toTbUser } from './tb-user.ts';

export function registerCloudAccountRoutes(fastify: FastifyInstance, { accounts, cloudAccounts }: Pick<Services, 'accounts' | 'cloudAccounts'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.route({
    ...authRoutes.user,
    handler: async (request) => {
      const user = accounts.findById(request.user!.id);
      // The access hook has just read this row; gone now means deleted in between.
      if (!user) throw new AppError(ErrorCode.AUTHENTICATION, 'error.auth.tokenInvalid');
      return toTbUser(user, cloudAccounts.signIn.links.findByUserId(user.id), cloudAccounts.tenantId);
    },
  });
}
