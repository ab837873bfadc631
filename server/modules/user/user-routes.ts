/** STUB — to be implemented. */
import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../app.ts';
export async function userModule(_app: FastifyInstance, _deps: ModuleDeps): Promise<void> {}
