/** STUB — implemented by the build work. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AssetSource } from '../lib/assets.ts';
export interface StaticOptions { assets: AssetSource | null; guideRedirect: () => boolean }
async function staticPlugin(_app: FastifyInstance, _opts: StaticOptions): Promise<void> {}
export default fp(staticPlugin, { name: 'static' });
