/**
 * While the database file is gone (server/lib/database-file-watch.ts) every change is refused
 * with code 46: it would be acknowledged into a file that no longer has a name and be lost at the
 * next restart. Reading goes on, and so do sign-in and token refresh, so the console still shows
 * what the gateway holds and the administrator sees why nothing can be saved.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DatabaseLostRefusal, type DatabaseFileWatch } from '../lib/database-file-watch.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

async function databaseLostPlugin(app: FastifyInstance, opts: { watch: DatabaseFileWatch }): Promise<void> {
  app.addHook('onRequest', async (request) => {
    if (!opts.watch.lost || READS.has(request.method) || request.url.startsWith('/api/auth/')) return;
    throw new DatabaseLostRefusal();
  });
}

export default fp(databaseLostPlugin, { name: 'database-lost' });
