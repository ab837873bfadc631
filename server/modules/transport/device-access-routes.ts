/**
 * What the console needs to tell a device maker how to connect: the bound MQTT ports and the TLS
 * port's certificate (server/contract/device-access.ts).
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { deviceAccessRoutes, GATEWAY_CERTIFICATE_FILE } from '../../contract/device-access.ts';
import { ErrorCode } from '../../contract/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Services } from '../../module.ts';

export function registerDeviceAccessRoutes(app: FastifyInstance, { transport }: Pick<Services, 'transport'>): void {
  app.route({
    ...deviceAccessRoutes.info,
    handler: async () => ({
      mqttPort: transport.mqttPort,
      mqttsPort: transport.mqttsPort,
      mqttsFingerprint: transport.mqttsCertificate?.fingerprint256 ?? null,
    }),
  });
  app.route({
    ...deviceAccessRoutes.certificate,
    handler: async (_request, reply) => {
      const certificate = transport.mqttsCertificate;
      if (!certificate) throw new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.transport.tlsOff', {}, { status: 404 });
      return reply
        .type('application/x-pem-file')
        .header('content-disposition', `attachment; filename="${GATEWAY_CERTIFICATE_FILE}"`)
        .send(await readFile(certificate.certFile));
    },
  });
}
