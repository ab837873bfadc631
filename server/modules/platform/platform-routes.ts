/** STUB — implemented by the session work. */
import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../app.ts';
export async function platformModule(_app: FastifyInstance, _deps: ModuleDeps): Promise<void> {}
