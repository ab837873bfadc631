/** STUB — implemented by the build work. */
import type { FastifyInstance } from 'fastify';
export default async function proxyPlugin(_app: FastifyInstance, _opts: { upstream: string }): Promise<void> {}
