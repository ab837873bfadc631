/**
 * The map tile URL of the system configuration (server/contract/map.ts): stored server-side, checked
 * by its rule, and its origin, and nothing else, allowed in the console pages' CSP img-src.
 */
import { describe, expect, it } from 'vitest';
import { mapRoutes } from '../../server/contract/map.ts';
import { consoleFiles, makeApp } from '../helpers/app.ts';
import { expectError } from '../helpers/error-body.ts';
import { authHeader, signIn } from '../helpers/session.ts';
import { makeProvisionedApp } from '../helpers/setup.ts';

async function signedIn(assets = false) {
  const t = await makeProvisionedApp(assets ? { assets: consoleFiles() } : {});
  const { token } = await signIn(t.app, t.admin.username, t.admin.password);
  const headers = authHeader(token);
  const save = (payload: unknown) =>
    t.app.inject({ method: 'PUT', url: mapRoutes.save.url, headers, payload: payload as Record<string, unknown> });
  const get = () => t.app.inject({ method: 'GET', url: mapRoutes.get.url, headers });
  return { ...t, save, get };
}

function imgSrc(res: { headers: Record<string, unknown> }): string | undefined {
  return (res.headers['content-security-policy'] as string).split('; ').find((d) => d.startsWith('img-src'));
}

describe('map tile URL setting', () => {
  it('has no tile URL until one is configured, so the console shows coordinate fields only', async () => {
    const t = await signedIn();
    const res = await t.get();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ tileUrl: null });
  });

  it('stores a tile URL of an on-site tile server and keeps it across a restart', async () => {
    const t = await signedIn();
    const url = 'http://10.0.0.5:8080/tiles/{z}/{x}/{y}.png';
    const saved = await t.save({ tileUrl: url });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ tileUrl: url });
    expect((await t.get()).json()).toEqual({ tileUrl: url });

    await t.app.close();
    const again = await makeApp({ dataDir: t.dataDir, embeddedLicenseKeys: [] });
    expect(again.app.services?.mapSettings?.get()).toEqual({ tileUrl: url });
  });

  it('clears the tile URL with null or empty text', async () => {
    const t = await signedIn();
    await t.save({ tileUrl: 'https://tiles.example.com/{z}/{x}/{y}.png' });
    expect((await t.save({ tileUrl: '' })).json()).toEqual({ tileUrl: null });
    await t.save({ tileUrl: 'https://tiles.example.com/{z}/{x}/{y}.png' });
    expect((await t.save({ tileUrl: null })).json()).toEqual({ tileUrl: null });
  });

  it('refuses a tile URL that is not an http(s) template of z, x and y, naming the field', async () => {
    const t = await signedIn();
    for (const tileUrl of [
      'javascript:alert(1)//{z}/{x}/{y}',
      'ftp://tiles.example.com/{z}/{x}/{y}.png',
      'http://tiles.example.com/{z}/{x}.png',
      "http://tiles.example.com/{z}/{x}/{y}.png; script-src 'unsafe-inline'",
      'http://tiles.example.com/{z}/{x}/{y}.png,https://evil.example',
      'tiles/{z}/{x}/{y}.png',
      `http://tiles.example.com/${'a'.repeat(600)}/{z}/{x}/{y}.png`,
      42,
    ]) {
      const body = expectError(await t.save({ tileUrl }), 400, 31, 'error.map.tileUrl');
      expect(body.details?.[0]?.field).toBe('body.tileUrl');
    }
    expect((await t.get()).json()).toEqual({ tileUrl: null });
  });

  it('refuses callers who are not signed in', async () => {
    const t = await signedIn();
    expectError(await t.app.inject({ method: 'GET', url: mapRoutes.get.url }), 401, 10, 'error.auth.required');
    expectError(
      await t.app.inject({ method: 'PUT', url: mapRoutes.save.url, payload: { tileUrl: 'http://a.example/{z}/{x}/{y}' } }),
      401,
      10,
      'error.auth.required',
    );
  });

  it("adds the tile server's origin to the console's img-src, and drops it once cleared", async () => {
    const t = await signedIn(true);
    expect(imgSrc(await t.app.inject({ url: '/device/list' }))).toBe("img-src 'self' data: blob:");

    await t.save({ tileUrl: 'http://Tiles.Local:8088/osm/{z}/{x}/{y}.png?style=1' });
    const page = await t.app.inject({ url: '/device/list' });
    expect(imgSrc(page)).toBe("img-src 'self' data: blob: http://tiles.local:8088");
    // The rest of the policy stays as strict as before.
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('tiles.local:8088/');

    await t.save({ tileUrl: null });
    expect(imgSrc(await t.app.inject({ url: '/device/list' }))).toBe("img-src 'self' data: blob:");
  });
});
