/**
 * Form bodies for the console's calls (server/contract/*): the spec lets a call's body be JSON, a
 * url-encoded form or a multipart form. Each is registered in the scope of the routes that take it,
 * never at the root: the device API (server/modules/transport/device-api-routes.ts) reads every
 * body as raw bytes, and a form parser inherited from the root would take its url-encoded ones.
 * The parsed fields are plain strings; the route's body schema then checks them, with Fastify's
 * type coercion turning "5" into 5 and a lone value into a one-item array.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

/** `a=1&b=2&b=3` → `{ a: '1', b: ['2', '3'] }`: a repeated name is a list. */
export function formFields(params: URLSearchParams): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of params) {
    const seen = fields[name];
    fields[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return fields;
}

/** `application/x-www-form-urlencoded` bodies for the routes of `app`'s scope. */
export function acceptUrlEncodedBodies(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, formFields(new URLSearchParams(body as string)));
  });
}

/**
 * `multipart/form-data` bodies of text fields only for the routes of `app`'s scope: the fields
 * become the body the route's schema checks; a file part is refused (413, the multipart limit).
 */
export async function acceptMultipartFields(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { files: 0, fields: 16, fieldSize: 1024, parts: 16, headerPairs: 50 },
  });
}
