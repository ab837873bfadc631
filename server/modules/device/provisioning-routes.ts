/**
 * HTTP device provisioning, ThingsBoard's `POST /api/v1/provision` (server/contract/provisioning.ts).
 * Devices send JSON under any content type (or none), as they do to the device API.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DEVICE_PAYLOAD_MAX_BYTES } from '../../contract/device-api.ts';
import { ErrorCode } from '../../contract/errors.ts';
import { provisionRoutes } from '../../contract/provisioning.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Services } from '../../module.ts';

export function registerProvisioningRoutes(fastify: FastifyInstance, { provisioning }: Pick<Services, 'provisioning'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  // This plugin's scope only.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: DEVICE_PAYLOAD_MAX_BYTES }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.transport.malformedJson'), undefined);
    }
  });

  app.route({
    ...provisionRoutes.provision,
    // The body carries the product's secret: no per-request lines.
    logLevel: 'warn',
    handler: async (request) => {
      const waitMs = provisioning.retryAfterMs(request.ip);
      // 429 over HTTP (with Retry-After); the answer body is ThingsBoard's only for what it answers.
      if (waitMs > 0) throw new AppError(ErrorCode.TOO_MANY_REQUESTS, 'error.provision.tooManyAttempts', { seconds: Math.ceil(waitMs / 1000) });
      return provisioning.provision(request.body, request.ip);
    },
  });
}
