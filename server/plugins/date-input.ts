/**
 * Dates as text in console calls: a query or body field whose schema is `DateInput`
 * (server/contract/common.ts) takes the spec's `YYYY-MM-DD HH:mm:ss` (gateway time zone) as well
 * as epoch milliseconds. The text is turned into milliseconds before validation, so the schema
 * and the handler see one form. Only routes with such a field get the hook: no other request
 * (the device API, telemetry) pays for it.
 */
import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { DATE_INPUT } from '../contract/common.ts';
import { parseDateTimeText } from '../contract/rules/date-time.ts';

type Part = 'query' | 'body';

function dateFields(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, Record<string, unknown>> } | undefined)?.properties;
  if (!properties) return [];
  return Object.entries(properties)
    .filter(([, property]) => property.$comment === DATE_INPUT)
    .map(([name]) => name);
}

function convert(request: FastifyRequest, part: Part, names: readonly string[]): void {
  const values = request[part] as Record<string, unknown> | null | undefined;
  if (!values || typeof values !== 'object') return;
  for (const name of names) {
    const value = values[name];
    if (typeof value !== 'string') continue;
    const ms = parseDateTimeText(value);
    if (ms !== null) values[name] = ms;
  }
}

async function dateInputPlugin(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { querystring?: unknown; body?: unknown } | undefined;
    const fields: [Part, string[]][] = [
      ['query', dateFields(schema?.querystring)],
      ['body', dateFields(schema?.body)],
    ];
    const wanted = fields.filter(([, names]) => names.length > 0);
    if (wanted.length === 0) return;
    const hook: preValidationHookHandler = (request, _reply, done) => {
      for (const [part, names] of wanted) convert(request, part, names);
      done();
    };
    const existing = route.preValidation;
    route.preValidation = existing === undefined ? [hook] : [hook, ...(Array.isArray(existing) ? existing : [existing])];
  });
}

export default fp(dateInputPlugin, { name: 'date-input' });
