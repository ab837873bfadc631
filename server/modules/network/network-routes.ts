/** HTTP of network configuration; who may call is the access hook's job (server/contract/network.ts). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { networkRoutes } from '../../contract/network.ts';
import type { ErrorKey } from '../../contract/errors.ts';
import { fieldErrorFormatter } from '../../lib/field-errors.ts';
import type { Services } from '../../module.ts';
import type { RequestOrigin } from './network-service.ts';

/** Schema failures of a section's field get the field's own rule text (the size bounds of the schema). */
const fieldKeys: Record<string, ErrorKey> = {
  ipAddress: 'error.network.ipAddress',
  subnetMask: 'error.network.subnetMask',
  gateway: 'error.network.gateway',
  dns: 'error.network.dns',
  poolStart: 'error.network.poolStart',
  poolEnd: 'error.network.poolEnd',
  ssid: 'error.network.ssid',
  password: 'error.network.wifiPassword',
  apn: 'error.network.apn',
  pin: 'error.network.pin',
  applyId: 'error.network.applyUnknown',
};

function origin(request: FastifyRequest): RequestOrigin {
  return { protocol: request.protocol, hostname: request.hostname, port: request.port ?? null };
}

export function registerNetworkRoutes(fastify: FastifyInstance, { network }: Pick<Services, 'network'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const schemaErrorFormatter = fieldErrorFormatter(fieldKeys);
  app.route({ ...networkRoutes.get, handler: async () => network.state() });
  app.route({ ...networkRoutes.plan, schemaErrorFormatter, handler: async (request) => network.plan(request.body) });
  app.route({
    ...networkRoutes.apply,
    schemaErrorFormatter,
    handler: async (request) => {
      const { confirmWithinS, ...sections } = request.body;
      return network.apply(sections, confirmWithinS, origin(request));
    },
  });
  app.route({
    ...networkRoutes.confirm,
    schemaErrorFormatter,
    handler: async (request) => {
      await network.confirm(request.body.applyId);
      return { confirmed: true as const };
    },
  });
  app.route({ ...networkRoutes.wifiScan, handler: async () => network.scanWifi() });
}
