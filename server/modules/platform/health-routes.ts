import type { FastifyInstance } from 'fastify';
import { platformRoutes } from '../../contract/platform.ts';

const started = Date.now();

export async function healthModule(app: FastifyInstance, opts: { version: string; mode: 'embedded' | 'proxy' }): Promise<void> {
  app.route({
    ...platformRoutes.health,
    handler: async () => ({ status: 'ok' as const, version: opts.version, mode: opts.mode, uptimeMs: Date.now() - started }),
  });
}
