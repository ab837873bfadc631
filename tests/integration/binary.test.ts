/**
 * The shipped executable itself (dist/bin/edge-console-linux-x64): its command line and that it
 * serves the console and the API from what is embedded in it. Runs in the e2e configuration,
 * after the build (vitest.e2e.config.ts); on its own it builds the binary when it is missing.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/build.ts';
import { ensureBinary, startBinary, type RunningBinary } from '../helpers/binary.ts';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

let binary = '';
beforeAll(() => {
  binary = ensureBinary();
}, 180_000);

const running: RunningBinary[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.kill();
});

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(binary, args);
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('edge-console binary', () => {
  it('prints the package version with --version', async () => {
    const res = await cli('--version');
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toMatch(new RegExp(`^${pkg.version.replace(/\./g, '\\.')}(\\+[0-9a-f]+)?$`));
    expect(res.stderr).toBe('');
  });

  it('lists every documented flag with its variable in --help', async () => {
    const res = await cli('--help');
    expect(res.code).toBe(0);
    for (const flag of ['--host', '--port', '--data-dir', '--mqtt-port', '--upstream', '--license-public-key', '--device-sn', '--log-level', '--help', '--version']) {
      expect(res.stdout).toContain(flag);
    }
    expect(res.stdout).toContain('EDGE_DATA_DIR');
  });

  it('starts its server bundle from the V8 code cache it was built with', async () => {
    const { stderr } = await run(binary, [], { env: { ...process.env, NODE_OPTIONS: '', EDGE_CODE_CACHE_CHECK: '1' } });
    expect(stderr).toContain('code cache: accepted');
  });

  it('refuses an unknown flag with exit code 2 and a hint', async () => {
    const res = await cli('--no-such-flag');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('unknown option: --no-such-flag');
    expect(res.stderr).toContain('--help');
  });

  it('starts on an empty data dir, writes a setup code and serves health, console and API docs', async () => {
    const gw = await startBinary({ binary });
    running.push(gw);
    expect(gw.setupCode).toMatch(/^[A-Z0-9]{6,}$/);

    const health = (await (await fetch(`${gw.url}/api/health`)).json()) as { status: string; mode: string; version: string };
    expect(health).toMatchObject({ status: 'ok', mode: 'embedded' });
    expect(health.version.startsWith(pkg.version)).toBe(true);

    const guide = await fetch(`${gw.url}/guide`, { headers: { 'accept-encoding': 'br' } });
    expect(guide.status).toBe(200);
    expect(guide.headers.get('content-encoding')).toBe('br');
    const html = await guide.text();
    const script = /<script type="module" src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const js = await fetch(`${gw.url}${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toContain('immutable');
    // The binary stores text files compressed only; a client without gzip still gets the file.
    const plain = await fetch(`${gw.url}${script}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(readFileSync(join(root, 'dist/web', script!), 'utf8'));

    const login = await fetch(`${gw.url}/login`, { redirect: 'manual' });
    expect(login.status).toBe(302);
    expect(login.headers.get('location')).toBe('/guide');

    const docs = await fetch(`${gw.url}/api/docs/json`);
    expect(((await docs.json()) as { paths: Record<string, unknown> }).paths['/api/auth/login']).toBeDefined();
  });
});
