import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import accessPlugin from '../../server/plugins/access.ts';

async function appWith(config: Record<string, unknown>, url = '/api/yt/thing'): Promise<void> {
  const app = Fastify();
  await app.register(accessPlugin, {
    setupCode: 'CODE',
    services: {
      verifyAccessToken: () => null,
      licenseStatus: () => 'VALID',
      adminExists: () => true,
      deviceScopeOf: () => null,
      deviceVisible: () => true,
      productScopeOf: () => null,
      nodeRedInstanceOf: () => null,
    },
  });
  app.route({ method: 'GET', url, config, handler: async () => ({}) });
  try {
    await app.ready();
  } finally {
    await app.close();
  }
}

describe('route permissions at start-up', () => {
  it('refuses a signed-in route without a permission, naming it', async () => {
    await expect(appWith({ access: 'user' })).rejects.toThrow('route GET /api/yt/thing is for signed-in users but names no permission');
  });

  it('refuses a permission the table does not list', async () => {
    await expect(appWith({ access: 'user', permission: 'thing:frobnicate' })).rejects.toThrow('"thing:frobnicate"');
  });

  it('refuses a route naming a device by :id without organization scoping', async () => {
    await expect(appWith({ access: 'user', permission: 'device:view' }, '/api/yt/device/:id/extra')).rejects.toThrow('config.deviceParam');
  });

  it('refuses a route naming a product by id without organization scoping', async () => {
    await expect(appWith({ access: 'user', permission: 'device_profile:view' }, '/api/yt/device_profile/:id/extra')).rejects.toThrow('config.productParam');
    await expect(appWith({ access: 'user', permission: 'things_model:list' }, '/api/yt/things_model/:deviceProfileId/items')).rejects.toThrow('config.productParam');
  });

  it('accepts a known permission, and public routes without one', async () => {
    await expect(appWith({ access: 'user', permission: 'device:view', deviceParam: 'id' }, '/api/yt/device/:id/extra')).resolves.toBeUndefined();
    await expect(appWith({ access: 'user', permission: 'device_profile:view', productParam: 'id' }, '/api/yt/device_profile/:id')).resolves.toBeUndefined();
    await expect(appWith({ access: 'public' })).resolves.toBeUndefined();
  });
});
