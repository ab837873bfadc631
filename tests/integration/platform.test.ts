import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/sqlite.ts';
import { PlatformService } from '../../server/modules/platform/platform-service.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { makeProvisionedApp } from '../helpers/setup.ts';
import { migrations } from '../../server/app.ts';

function info(t: TestApp) {
  return t.app.inject({ method: 'GET', url: '/api/yt/platform/info' });
}

/** Changes branding through a second connection, as the operation-management module will. */
function withPlatform<T>(t: TestApp, fn: (platform: PlatformService) => T): T {
  const db = openDatabase(join(t.dataDir, 'edge.db'), migrations);
  try {
    return fn(new PlatformService(db));
  } finally {
    db.close();
  }
}

describe('GET /api/yt/platform/info', () => {
  it('answers no name and no images before anything is set (the console shows its own name in the reader\'s language), without a token or licence', async () => {
    const t = await makeApp();
    const res = await info(t);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: null, logo: null, icon: null, slogan: null });
  });

  it('shows the platform name chosen when the administrator was created', async () => {
    const t = await makeProvisionedApp({}, { platformName: '智慧园区网关' });
    expect((await info(t)).json()).toMatchObject({ name: '智慧园区网关' });
  });

  it('keeps the other branding fields when only some change', async () => {
    const t = await makeApp();
    withPlatform(t, (p) => p.update({ logo: '/api/yt/oss/files/logo.png', slogan: 'Edge first' }));
    withPlatform(t, (p) => p.setName('Plant 7'));
    expect((await info(t)).json()).toEqual({
      name: 'Plant 7',
      logo: '/api/yt/oss/files/logo.png',
      icon: null,
      slogan: 'Edge first',
    });
  });
});
