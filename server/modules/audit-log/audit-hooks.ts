/**
 * Records every successful POST, PUT or DELETE of a signed-in user in the audit log: the route
 * pattern as the action, its operationId (the key of its description in the locale files), its
 * English summary, and the entity it named. Registered on the root instance
 * (server/app.ts) so that it sees the routes of every module. Sign-ins come from an event instead
 * (no user is signed in yet when they are called).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { operationIdOf } from '../../contract/route.ts';
import type { AuditEntry } from './audit-log-service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The id of what a create answered with, noted before the reply is sent. */
    auditCreatedId?: string;
  }
}

const audited = new Set(['POST', 'PUT', 'DELETE']);
/** Created ids are read from answers up to this size; bigger answers are lists or files. */
const ANSWER_PEEK_MAX = 64 * 1024;
const ENTITY_IDS_MAX = 20;

function isAudited(request: FastifyRequest, statusCode: number): boolean {
  return request.user !== null && audited.has(request.method) && statusCode >= 200 && statusCode < 300 && !request.routeOptions.config.noAudit;
}

/** The entity a call names in its path or body: its path id, or its body's id or ids. */
function namedEntityOf(request: FastifyRequest): string | null {
  const params = request.params as { id?: unknown } | undefined;
  if (typeof params?.id === 'string') return params.id;
  const body = request.body as { id?: unknown; ids?: unknown } | undefined;
  if (body && typeof body === 'object') {
    if (typeof body.id === 'string') return body.id;
    if (Array.isArray(body.ids)) {
      const ids = body.ids.filter((id): id is string => typeof id === 'string');
      return ids.slice(0, ENTITY_IDS_MAX).join(',') + (ids.length > ENTITY_IDS_MAX ? ',…' : '');
    }
  }
  return null;
}

/** The entity a call names, or else the id it answered with. */
function entityOf(request: FastifyRequest): string | null {
  return namedEntityOf(request) ?? request.auditCreatedId ?? null;
}

async function auditHooks(app: FastifyInstance, opts: { record: (entry: AuditEntry) => void }): Promise<void> {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!isAudited(request, reply.statusCode) || typeof payload !== 'string' || payload.length > ANSWER_PEEK_MAX) return payload;
    // Only a call that names no entity needs the id it answered with: the others skip the parse.
    if (!payload.startsWith('{') || namedEntityOf(request) !== null) return payload;
    try {
      const id = (JSON.parse(payload) as { id?: unknown }).id;
      if (typeof id === 'string') request.auditCreatedId = id;
    } catch {
      // Not JSON after all: nothing to note.
    }
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    if (!isAudited(request, reply.statusCode)) return;
    const user = request.user!;
    const route = request.routeOptions.url ?? request.url;
    opts.record({
      userId: user.id,
      username: user.username,
      action: `${request.method} ${route}`,
      operation: operationIdOf(request.method, route),
      summary: request.routeOptions.schema?.summary ?? null,
      entityId: entityOf(request),
      statusCode: reply.statusCode,
      sourceAddress: request.ip,
    });
  });
}

export default fp(auditHooks, { name: 'audit-hooks' });
