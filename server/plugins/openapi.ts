/** STUB — implemented by the build work. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
async function openapiPlugin(_app: FastifyInstance, _opts: { version: string }): Promise<void> {}
export default fp(openapiPlugin, { name: 'openapi' });
