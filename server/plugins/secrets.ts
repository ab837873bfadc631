/**
 * Credential fields in HTTP answers (server/contract/secrets.ts): a route whose answer schema names
 * one has its answers redacted for a signed-in role that may not read it. Routes that carry none
 * (the telemetry, most of them) are not walked.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hiddenFieldsOf, mentionsSecret, redactSecrets } from '../lib/redact-secrets.ts';

async function secretsPlugin(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    const response = (route.schema as { response?: unknown } | undefined)?.response;
    if (!response || !mentionsSecret(JSON.stringify(response))) return;
    const hooks = route.preSerialization;
    const redact = async (request: { user: { role: Parameters<typeof hiddenFieldsOf>[0] } | null }, _reply: unknown, payload: unknown): Promise<unknown> =>
      // Without a user (first boot's setup code, public routes) nothing was signed in to redact for:
      // those routes answer only the provisioning wizard, which holds every permission.
      request.user ? redactSecrets(payload, hiddenFieldsOf(request.user.role)) : payload;
    route.preSerialization = [...(Array.isArray(hooks) ? hooks : hooks ? [hooks] : []), redact as never];
  });
}

export default fp(secretsPlugin, { name: 'secrets' });
