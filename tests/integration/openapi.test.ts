import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../../server/contract/route.ts';
import { makeApp } from '../helpers/app.ts';

interface Operation {
  tags?: string[];
  summary?: string;
  security?: unknown[];
  'x-access'?: string;
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  components: { securitySchemes: Record<string, unknown> };
  security: unknown[];
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
}

function isRouteDef(value: unknown): value is RouteDef {
  const v = value as Partial<RouteDef> | null;
  return !!v && typeof v === 'object' && typeof v.method === 'string' && typeof v.url === 'string' && !!v.config?.access;
}

/** Every route of every table exported by server/contract/*.ts. */
async function contractRoutes(): Promise<RouteDef[]> {
  const dir = join(import.meta.dirname, '../../server/contract');
  const routes: RouteDef[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts')).sort()) {
    const mod = (await import(join(dir, file))) as Record<string, unknown>;
    for (const table of Object.values(mod)) {
      if (table && typeof table === 'object') routes.push(...Object.values(table).filter(isRouteDef));
    }
  }
  return routes;
}

const openapiPath = (url: string): string => url.replace(/:(\w+)/g, '{$1}');

async function documentOf(): Promise<Document> {
  const { app } = await makeApp();
  const res = await app.inject({ url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  return res.json() as Document;
}

describe('OpenAPI document', () => {
  it('lists every contract route with its method, without signing in', async () => {
    const doc = await documentOf();
    const routes = await contractRoutes();
    expect(routes.length).toBeGreaterThan(10);
    const missing = routes
      .filter((r) => !doc.paths[openapiPath(r.url)]?.[r.method.toLowerCase()])
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
  });

  it('marks public routes with an empty security list and the others with the bearer scheme', async () => {
    const doc = await documentOf();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info).toMatchObject({ title: 'edge-console', version: '0.0.0-test' });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    for (const r of await contractRoutes()) {
      const op = doc.paths[openapiPath(r.url)]?.[r.method.toLowerCase()];
      if (!op) continue; // reported by the test above
      expect(op['x-access'], r.url).toBe(r.config.access);
      if (r.config.access === 'public') expect(op.security, r.url).toEqual([]);
      else expect(op.security, r.url).toBeUndefined();
    }
  });

  it('keeps the console files and the docs themselves out of the document, and lists its tags', async () => {
    const doc = await documentOf();
    expect(Object.keys(doc.paths).every((p) => p.startsWith('/api/'))).toBe(true);
    expect(doc.paths['/api/docs']).toBeUndefined();
    const used = new Set(Object.values(doc.paths).flatMap((m) => Object.values(m).flatMap((op) => op.tags ?? [])));
    expect(doc.tags.map((t) => t.name).sort()).toEqual([...used].sort());
  });

  it('renders a self-contained page grouping operations by tag', async () => {
    const { app } = await makeApp();
    const res = await app.inject({ url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).not.toMatch(/<script|<link|https?:\/\/(?!localhost)/);
    expect(res.body).toContain('<h2>auth</h2>');
    expect(res.body).toContain('<code>/api/auth/login</code>');
    expect(res.body).toMatch(/<span class="m post">POST<\/span> <code>\/api\/auth\/login<\/code> <span class="a public">public<\/span>/);
  });

  it('leaves /api/docs to the upstream in proxy mode', async () => {
    const { app } = await makeApp({ upstream: 'http://127.0.0.1:9' });
    const res = await app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(502);
  });
});
