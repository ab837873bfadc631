/**
 * The OpenAPI 3.1 document of every contract route (`GET /api/docs/json`) and a browsable page
 * (`GET /api/docs`) rendered on the server: the binary has no files for a swagger UI and the
 * gateway may have no internet for a CDN, so the page is one self-contained HTML answer.
 *
 * Registered before the routes so @fastify/swagger sees each one as it is added. Each route's
 * `config.access` decides its security: public routes carry `security: []`, the rest the bearer
 * scheme; the access level is also kept as `x-access` for readers of the document.
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { operationIdOf } from '../contract/route.ts';
import { NODE_RED_INSTANCE_HEADER } from '../contract/node-red-palette.ts';

export interface OpenapiOptions {
  version: string;
  /** False in proxy mode, where /api/docs belongs to the upstream like every other /api path. */
  docs?: boolean;
  /** Tag descriptions, contributed by the modules (read when the document is made, after they registered). */
  tags?: Readonly<Record<string, string>>;
}


interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown; description?: string }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  'x-access'?: string;
}

interface Document {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function json(value: unknown): string {
  return `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;
}

function renderOperation(method: string, path: string, op: Operation): string {
  const access = op['x-access'] ?? (op.security && op.security.length === 0 ? 'public' : 'user');
  const parts = [
    `<summary><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code>`,
    ` <span class="a ${escapeHtml(access)}">${escapeHtml(access)}</span> ${escapeHtml(op.summary ?? '')}</summary>`,
  ];
  if (op.description) parts.push(`<p>${escapeHtml(op.description)}</p>`);
  if (op.parameters?.length) {
    const rows = op.parameters.map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.required ? 'yes' : ''}</td><td>${json(p.schema)}</td></tr>`,
    );
    parts.push(`<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>required</th><th>schema</th></tr>${rows.join('')}</table>`);
  }
  for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
    parts.push(`<h4>Body <small>${escapeHtml(type)}</small></h4>${json(media.schema)}`);
  }
  for (const [status, res] of Object.entries(op.responses ?? {})) {
    const media = Object.values(res.content ?? {})[0];
    parts.push(`<h4>Response ${escapeHtml(status)}</h4>${media?.schema ? json(media.schema) : `<p>${escapeHtml(res.description ?? '')}</p>`}`);
  }
  return `<details>${parts.join('')}</details>`;
}

/** The document as a page: operations grouped by tag, schemas folded away until opened. */
export function renderDocsPage(doc: Document): string {
  const groups = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags?.[0] ?? 'other';
      groups.set(tag, [...(groups.get(tag) ?? []), renderOperation(method, path, op)]);
    }
  }
  const known = (doc.tags ?? []).map((t) => t.name);
  const order = [...known, ...[...groups.keys()].filter((t) => !known.includes(t)).sort()];
  const sections = order
    .filter((tag) => groups.has(tag))
    .map((tag) => {
      const description = doc.tags?.find((t) => t.name === tag)?.description;
      return `<section><h2>${escapeHtml(tag)}</h2>${description ? `<p>${escapeHtml(description)}</p>` : ''}${groups.get(tag)!.join('')}</section>`;
    });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.info.title)} API</title>
<style>
body{font:14px/1.5 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:16px;color:#1d2129}
h2{border-bottom:1px solid #e5e6eb;padding-bottom:4px;text-transform:capitalize}
details{border:1px solid #e5e6eb;border-radius:4px;margin:6px 0;padding:6px 10px}
summary{cursor:pointer}
pre{background:#f7f8fa;padding:8px;overflow:auto;margin:4px 0;font-size:12px}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #e5e6eb;padding:4px;text-align:left;vertical-align:top}
.m{display:inline-block;min-width:60px;font-weight:600}.get{color:#00b42a}.post{color:#165dff}.put{color:#ff7d00}.delete{color:#f53f3f}
.a{font-size:12px;border-radius:3px;padding:0 6px;background:#f2f3f5}.public{background:#e8ffea}.setup{background:#fff7e8}
</style></head><body>
<h1>${escapeHtml(doc.info.title)} <small>${escapeHtml(doc.info.version)}</small></h1>
<p>${escapeHtml(doc.info.description ?? '')} Machine-readable: <a href="/api/docs/json">/api/docs/json</a>.</p>
${sections.join('\n')}
</body></html>`;
}

async function openapiPlugin(app: FastifyInstance, opts: OpenapiOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      // 3.1, whose Schema Objects are JSON Schema 2020-12, the dialect TypeBox emits: route
      // schemas go into the document as they are. Under 3.0 a numeric `exclusiveMinimum` (the
      // thing model's `step`) is invalid and validators refuse the whole document
      // (tests/integration/openapi.test.ts validates it and generates a typed client from it).
      openapi: '3.1.0',
      info: {
        title: 'edge-console',
        version: opts.version,
        description:
          'HTTP API of the edge console. Errors answer {code, key, message, details?}; sign in with POST /api/auth/login and send Authorization: Bearer <token>.',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          nodeRedInstance: { type: 'apiKey', in: 'header', name: NODE_RED_INSTANCE_HEADER, description: 'A Node-RED instance of this gateway, over loopback only' },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    transform: ({ schema, url, route }) => {
      // Only contract routes belong in the document: not the console's files or the proxy.
      const access = route.config?.access;
      if (!access) return { schema: { ...schema, hide: true }, url };
      const method = Array.isArray(route.method) ? route.method.join('') : route.method;
      const marked: Record<string, unknown> = { ...schema, operationId: operationIdOf(method, url), 'x-access': access };
      if (access === 'public') marked.security = [];
      if (access === 'node-red-instance') marked.security = [{ nodeRedInstance: [] }];
      return { schema: marked as typeof schema, url };
    },
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      const doc = documentObject.openapiObject;
      const used = new Set<string>();
      for (const methods of Object.values(doc.paths ?? {})) {
        for (const op of Object.values(methods as Record<string, Operation>)) op.tags?.forEach((t) => used.add(t));
      }
      const descriptions = opts.tags ?? {};
      doc.tags = [...used].sort().map((name) => ({ name, ...(descriptions[name] ? { description: descriptions[name] } : {}) }));
      return doc;
    },
  });

  if (opts.docs === false) return;
  const docsConfig = { access: 'public' as const };
  app.get('/api/docs/json', { schema: { hide: true }, config: docsConfig }, async () => app.swagger());
  app.get('/api/docs', { schema: { hide: true }, config: docsConfig }, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      // No other site may frame the page (clickjacking): it has links, and runs on the gateway's origin.
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
      .header('x-frame-options', 'DENY')
      .send(renderDocsPage(app.swagger() as unknown as Document)),
  );
}

export default fp(openapiPlugin, { name: 'openapi' });
