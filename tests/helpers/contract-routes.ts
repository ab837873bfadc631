/**
 * The route tables of server/contract, keyed as the OpenAPI document names a route
 * (`GET /api/yt/device/{id}`): the permission matrices look up each documented route's config here.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RouteDef } from '../../server/contract/route.ts';

const contractDir = join(import.meta.dirname, '../../server/contract');

function isRouteDef(value: unknown): value is RouteDef {
  const v = value as Partial<RouteDef> | null;
  return typeof v === 'object' && v !== null && typeof v.method === 'string' && typeof v.url === 'string' && typeof v.config === 'object';
}

/** `GET /api/yt/device/{id}` → the route's config, from every route table of server/contract. */
export async function contractRoutes(): Promise<Map<string, RouteDef['config']>> {
  const byKey = new Map<string, RouteDef['config']>();
  for (const file of readdirSync(contractDir).filter((f) => f.endsWith('.ts'))) {
    const exports = (await import(join(contractDir, file))) as Record<string, unknown>;
    for (const table of Object.values(exports)) {
      if (typeof table !== 'object' || table === null) continue;
      for (const def of Object.values(table as Record<string, unknown>)) {
        if (isRouteDef(def)) byKey.set(`${def.method} ${def.url.replace(/:(\w+)/g, '{$1}')}`, def.config);
      }
    }
  }
  return byKey;
}

