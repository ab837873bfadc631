import { describe, expect, it } from 'vitest';
import { authRoutes } from '../../server/contract/auth.ts';
import { credentialsRoutes } from '../../server/contract/credentials.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { consoleFiles, makeApp } from '../helpers/app.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { DEFAULT_ADMIN } from '../helpers/setup.ts';

describe('headers of API answers', () => {
  it('keeps every API answer out of caches and unsniffed, the device credentials and sign-in included, but not the console files', async () => {
    const t = await makeDeviceApp({ assets: consoleFiles() });
    const device = await t.api.createDevice();
    const answers = [
      await t.api.call(credentialsRoutes.get, { params: { id: device.id } }),
      await t.app.inject({ method: 'POST', url: authRoutes.login.url, payload: DEFAULT_ADMIN }),
      await t.api.call(deviceRoutes.list),
      await t.anonymous.call(deviceRoutes.list),
      await t.app.inject({ url: '/api/no-such-thing' }),
      await t.app.inject({ url: '/api/health' }),
    ];
    for (const res of answers) {
      expect(res.headers['cache-control'], res.body).toBe('no-store');
      expect(res.headers['x-content-type-options'], res.body).toBe('nosniff');
    }
    // The console's files keep their own caching (uploaded files too: tests/integration/oss.test.ts).
    expect((await t.app.inject({ url: '/assets/main-AB12CD34.js' })).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.app.inject({ url: '/device' })).headers['cache-control']).toBe('no-cache');
  });

  it('forbids framing the API documentation page', async () => {
    const { app } = await makeApp();
    const res = await app.inject({ url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
