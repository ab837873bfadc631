/**
 * The request's device and product scopes (server/plugins/access.ts) are computed on first read
 * and kept for the request: a call that never reads them costs no membership lookup, and one that
 * reads them often costs one.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { DeviceScope } from '../../server/lib/device-scope.ts';
import accessPlugin from '../../server/plugins/access.ts';

async function appCounting(): Promise<{ app: FastifyInstance; counts: { device: number; product: number } }> {
  const counts = { device: 0, product: 0 };
  const app = Fastify();
  await app.register(accessPlugin, {
    setupCode: 'CODE',
    services: {
      verifyAccessToken: () => ({ id: 'u1', username: 'viewer', role: 'CUSTOMER_USER' }),
      licenseStatus: () => 'VALID',
      adminExists: () => true,
      deviceScopeOf: (): DeviceScope => {
        counts.device += 1;
        return { organizationIds: ['org-1'] };
      },
      deviceVisible: () => true,
      productScopeOf: () => {
        counts.product += 1;
        return { productIds: ['p-1'] };
      },
      nodeRedInstanceOf: () => null,
    },
  });
  const config = { access: 'user', permission: 'device:list' } as const;
  app.get('/quiet', { config }, async () => ({}));
  app.get('/reads', { config }, async (request) => ({
    scopes: [request.deviceScope, request.deviceScope, request.productScope, request.productScope],
  }));
  app.get('/api/yt/device_profile/:id', { config: { ...config, productParam: 'id' } }, async (request) => ({ scope: request.productScope }));
  return { app, counts };
}

const bearer = { authorization: 'Bearer token' };

describe('request scopes', () => {
  it('computes no scope for a call that does not read it', async () => {
    const { app, counts } = await appCounting();
    expect((await app.inject({ url: '/quiet', headers: bearer })).statusCode).toBe(200);
    expect(counts).toEqual({ device: 0, product: 0 });
  });

  it('computes each scope once per request however often it is read, and again for the next request', async () => {
    const { app, counts } = await appCounting();
    const res = await app.inject({ url: '/reads', headers: bearer });
    expect(res.json()).toEqual({ scopes: [{ organizationIds: ['org-1'] }, { organizationIds: ['org-1'] }, { productIds: ['p-1'] }, { productIds: ['p-1'] }] });
    expect(counts).toEqual({ device: 1, product: 1 });
    await app.inject({ url: '/reads', headers: bearer });
    expect(counts).toEqual({ device: 2, product: 2 });
  });

  it('answers 404 for a product outside the scope, reusing the scope the check computed', async () => {
    const { app, counts } = await appCounting();
    expect((await app.inject({ url: '/api/yt/device_profile/p-2', headers: bearer })).statusCode).toBe(404);
    expect((await app.inject({ url: '/api/yt/device_profile/p-1', headers: bearer })).json()).toEqual({ scope: { productIds: ['p-1'] } });
    expect(counts).toEqual({ device: 2, product: 2 });
  });
});
