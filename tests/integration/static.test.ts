import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { defaults } from '../../server/config.ts';
import { directoryAssets } from '../../server/lib/assets.ts';
import errorsPlugin from '../../server/plugins/errors.ts';
import staticPlugin from '../../server/plugins/static.ts';
import { tempDir } from '../helpers/app.ts';
import { issueLicense, testLicenseKeys } from '../helpers/license.ts';
import { activate } from '../helpers/setup.ts';

const indexHtml = '<!doctype html><html><head><title>console</title></head><body><div id="root"></div></body></html>';
const script = `console.log(${JSON.stringify('x'.repeat(2000))});`;

/** A built console as scripts/build.ts lays it out: hashed assets, .br/.gz beside text files. */
function builtConsole(): string {
  const dir = tempDir('edge-web-');
  mkdirSync(join(dir, 'assets'));
  const write = (rel: string, body: string | Buffer, compress: boolean): void => {
    writeFileSync(join(dir, rel), body);
    if (compress) {
      writeFileSync(join(dir, `${rel}.br`), brotliCompressSync(body));
      writeFileSync(join(dir, `${rel}.gz`), gzipSync(body));
    }
  };
  write('index.html', indexHtml, true);
  write('assets/main-AB12CD34.js', script, true);
  write('assets/logo-EF56GH78.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]), false);
  return dir;
}

const apps: FastifyInstance[] = [];
afterEach(async () => {
  while (apps.length) await apps.pop()!.close();
});

async function consoleServer(guide = false): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(errorsPlugin);
  await app.register(staticPlugin, { assets: directoryAssets(builtConsole()), guideRedirect: () => guide });
  apps.push(app);
  return app;
}

describe('console files', () => {
  it('serves a hashed script brotli-encoded when the browser accepts br, cached for a year', async () => {
    const app = await consoleServer();
    const res = await app.inject({ url: '/assets/main-AB12CD34.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('falls back to gzip, then to the plain file, by Accept-Encoding', async () => {
    const app = await consoleServer();
    const gz = await app.inject({ url: '/assets/main-AB12CD34.js', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await app.inject({ url: '/assets/main-AB12CD34.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('serves a binary file as is, with its type', async () => {
    const app = await consoleServer();
    const res = await app.inject({ url: '/assets/logo-EF56GH78.png', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.length).toBe(4);
  });

  it('answers 304 to a request carrying the current ETag', async () => {
    const app = await consoleServer();
    const first = await app.inject({ url: '/assets/main-AB12CD34.js' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await app.inject({ url: '/assets/main-AB12CD34.js', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers console routes with index.html, never cached, with security headers', async () => {
    const app = await consoleServer();
    for (const url of ['/', '/dashboard/workbench', '/device/list?page=2']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'identity' } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(indexHtml);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      expect(csp).toContain("img-src 'self' data: blob:");
      expect(csp).toContain("media-src 'self' blob:");
      expect(csp).toContain("connect-src 'self' ws://localhost:80 wss://localhost:80;");
    }
  });

  it('lets the console page open websockets to the host it was loaded from, and nowhere else', async () => {
    const app = await consoleServer();
    const csp = async (host: string) => {
      const res = await app.inject({ url: '/', headers: { host } });
      return (res.headers['content-security-policy'] as string).split('; ').find((d) => d.startsWith('connect-src'));
    };
    expect(await csp('gateway.local:8080')).toBe("connect-src 'self' ws://gateway.local:8080 wss://gateway.local:8080");
    expect(await csp('[fe80::1]:8080')).toBe("connect-src 'self' ws://[fe80::1]:8080 wss://[fe80::1]:8080");
    // A Host header that is not a host name adds nothing to the policy.
    expect(await csp("x; script-src 'unsafe-inline'")).toBe("connect-src 'self'");
  });

  it('answers HEAD like GET without a body', async () => {
    const app = await consoleServer();
    const res = await app.inject({ method: 'HEAD', url: '/assets/main-AB12CD34.js', headers: { 'accept-encoding': 'identity' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(script.length));
    expect(res.body).toBe('');
  });

  it('answers an unknown file with 404 rather than the page', async () => {
    const app = await consoleServer();
    for (const url of ['/assets/main-00000000.js', '/favicon.ico', '/server/main.cjs']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ code: 32, key: 'error.routeNotFound' });
    }
  });


  it('keeps the JSON error body for unknown /api paths, whatever the method', async () => {
    const app = await consoleServer();
    const get = await app.inject({ url: '/api/nothing/here', headers: { 'accept-language': 'en-US' } });
    expect(get.statusCode).toBe(404);
    expect(get.json()).toMatchObject({ code: 32, key: 'error.routeNotFound', message: 'Route GET /api/nothing/here does not exist' });
    const post = await app.inject({ method: 'POST', url: '/api/nothing', payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toMatchObject({ code: 32 });
  });

  it('sends console routes to the wizard while there is no licence, but not the wizard itself', async () => {
    const app = await consoleServer(true);
    const res = await app.inject({ url: '/dashboard/workbench' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/guide');
    for (const url of ['/guide', '/expired-upload-license']) {
      expect((await app.inject({ url })).statusCode, url).toBe(200);
    }
    expect((await app.inject({ url: '/assets/main-AB12CD34.js' })).statusCode).toBe(200);
  });
});

describe('console files in the whole app', () => {
  it('redirects to /guide on first boot and serves the console once a licence is uploaded', async () => {
    const keys = testLicenseKeys();
    const dataDir = tempDir();
    const config = { ...defaults, port: 0, mqttPort: 0, mqttsPort: 0, tcpPort: 0, dataDir, deviceSn: 'TEST-SN-0001' };
    const app = await buildApp({
      config,
      version: '0.0.0-test',
      assets: directoryAssets(builtConsole()),
      embeddedLicenseKeys: [keys.publicKeyPem],
    });
    apps.push(app);

    const before = await app.inject({ url: '/login' });
    expect(before.statusCode).toBe(302);
    expect(before.headers.location).toBe('/guide');

    const uploaded = await activate({ app, dataDir, config }, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem }) });
    expect(uploaded.statusCode).toBe(200);

    const after = await app.inject({ url: '/login' });
    expect(after.statusCode).toBe(200);
    expect(after.body).toBe(indexHtml);
    expect((await app.inject({ url: '/api/health' })).json()).toMatchObject({ status: 'ok' });
  });

  it('answers every path with the JSON 404 when the build has no console', async () => {
    const dataDir = tempDir();
    const app = await buildApp({ config: { ...defaults, port: 0, mqttPort: 0, mqttsPort: 0, tcpPort: 0, dataDir }, version: '0.0.0-test' });
    apps.push(app);
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 32 });
  });
});
