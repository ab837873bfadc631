import { execFile } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../../server/contract/route.ts';
import { makeApp, tempDir } from '../helpers/app.ts';
import { typesOf } from '../helpers/openapi-typegen/index.ts';
import { makeProvisionedApp } from '../helpers/setup.ts';

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

const root = join(import.meta.dirname, '../..');
const run = promisify(execFile);

/**
 * What a client author writes with the generated types (`api.d.ts`): sign in, create a product and
 * a device, read the device's access token. The typed `call` takes a path of `paths` and checks
 * path parameters, body and answer against it; the function at the end holds calls the types must
 * refuse, so types that decayed to `any` fail the check too (unused `@ts-expect-error`).
 */
const provisioningScript = String.raw`import type { paths } from './api.js';

type Method = 'get' | 'post' | 'put' | 'delete';
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Input<O> = (O extends { parameters: { path: infer A } } ? { path: A } : { path?: undefined }) &
  (O extends { requestBody: infer R } ? { body: Json<R> } : { body?: undefined });
type Ok<O> = O extends { responses: { 200: infer R } } ? Json<R> : never;

const [base, username, password] = process.argv.slice(2) as [string, string, string];
let token: string | undefined;

async function call<P extends keyof paths, M extends Method>(method: M, path: P, input: Input<Op<P, M>>): Promise<Ok<Op<P, M>>> {
  const { path: params, body } = input as { path?: Record<string, string>; body?: unknown };
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params?.[name] ?? ''));
  const headers: Record<string, string> = {};
  if (token) headers.authorization = 'Bearer ' + token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + url, { method: method.toUpperCase(), headers, body: body === undefined ? null : JSON.stringify(body) });
  if (res.status !== 200) throw new Error(method + ' ' + url + ': ' + res.status + ' ' + (await res.text()));
  return (await res.json()) as Ok<Op<P, M>>;
}

const session = await call('post', '/api/auth/login', { body: { username, password } });
token = session.token;
const product = await call('post', '/api/yt/device_profile', {
  body: { name: 'meters', deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT' },
});
const device = await call('post', '/api/yt/device', {
  body: { name: 'meter-1', deviceType: product.deviceType, deviceProfileId: product.id },
});
const credentials = await call('get', '/api/yt/device/{id}/credentials', { path: { id: device.id } });
const accessToken: string = credentials.credentialsId;
console.log(JSON.stringify({ productId: product.id, deviceId: device.id, type: credentials.credentialsType, accessToken }));

export function refusedByTheTypes(): void {
  // @ts-expect-error a device needs its product
  void call('post', '/api/yt/device', { body: { name: 'meter-2', deviceType: 'SENSOR' } });
  // @ts-expect-error not a device type
  void call('post', '/api/yt/device', { body: { name: 'meter-2', deviceType: 'TOASTER', deviceProfileId: product.id } });
  // @ts-expect-error the credentials path needs the device id
  void call('get', '/api/yt/device/{id}/credentials', {});
  // @ts-expect-error no such route
  void call('get', '/api/yt/devices', {});
  // @ts-expect-error the answer has no such field
  void credentials.password;
}
`;

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

  it('marks public routes with an empty security list, Node-RED instance routes with their header, and the others with the bearer scheme', async () => {
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
      else if (r.config.access === 'node-red-instance') expect(op.security, r.url).toEqual([{ nodeRedInstance: [] }]);
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

  it('is an OpenAPI 3.1 document that a standard validator accepts', async () => {
    const doc = await documentOf();
    const result = await validate(structuredClone(doc) as unknown as Parameters<typeof validate>[0]);
    expect(result.valid ? '' : compileErrors(result).slice(0, 4000)).toBe('');
    expect(result.warnings).toEqual([]);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('gives openapi-typescript types that type-check a provisioning script, which then provisions a device on the gateway', async () => {
    const doc = await documentOf();
    const dir = tempDir('openapi-client-');
    writeFileSync(join(dir, 'api.d.ts'), await typesOf(doc));
    writeFileSync(join(dir, 'provision.ts'), provisioningScript);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          lib: ['ES2023', 'DOM'],
          module: 'ESNext',
          moduleResolution: 'bundler',
          strict: true,
          noUncheckedIndexedAccess: true,
          noEmit: true,
          types: ['node'],
          typeRoots: [join(root, 'node_modules/@types')],
        },
        files: ['provision.ts'],
      }),
    );
    const checked = await run(join(root, 'node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.json')]).catch(
      (e: { stdout: string; stderr: string }) => ({ stdout: `tsc failed:\n${e.stdout}${e.stderr}` }),
    );
    expect(checked.stdout).toBe('');

    // Types can compile and still lie: the script runs against a provisioned gateway.
    const t = await makeProvisionedApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const { stdout } = await run(process.execPath, [join(dir, 'provision.ts'), base, t.admin.username, t.admin.password]);
    const out = JSON.parse(stdout) as { deviceId: string; type: string; accessToken: string };
    expect(out.type).toBe('ACCESS_TOKEN');
    expect(out.accessToken.length).toBeGreaterThan(0);
  }, 30_000);

  it('leaves /api/docs to the upstream in proxy mode', async () => {
    const { app } = await makeApp({ upstream: 'http://127.0.0.1:9' });
    const res = await app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(502);
  });
});
