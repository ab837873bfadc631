/**
 * Build step of scripts/binary.ts, bundled and run by plain node (the same node and V8 flags as
 * the binary): starts the server bundle on a temporary data dir through runBundle, waits for
 * GET /api/health and GET / to answer, then writes V8's code cache of everything compiled so far
 * and exits. The binary starts from that cache (server/sea-main.ts).
 *
 * Env: EDGE_CODE_CACHE_BUNDLE (dist/server/main.cjs), EDGE_CODE_CACHE_OUT (cache file),
 * EDGE_CODE_CACHE_URL (the server's base URL, matching the --host/--port given as arguments).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { runBundle } from '../../server/lib/bundle-loader.ts';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`code-cache-gen: ${name} is not set`);
  return value;
}

function status(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** Until `url` answers 2xx or 3xx (a gateway without licence redirects / to /guide). */
async function answered(url: string, deadline: number): Promise<void> {
  for (let s = await status(url); s < 200 || s >= 400; s = await status(url)) {
    if (Date.now() > deadline) throw new Error(`code-cache-gen: ${url} did not answer (last status ${s})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const bundle = env('EDGE_CODE_CACHE_BUNDLE');
const out = env('EDGE_CODE_CACHE_OUT');
const base = env('EDGE_CODE_CACHE_URL');
const { script } = runBundle(readFileSync(bundle), bundle, require);
const deadline = Date.now() + 30_000;
answered(`${base}/api/health`, deadline)
  .then(() => answered(`${base}/`, deadline))
  .then(() => {
    writeFileSync(out, script.createCachedData());
    process.exit(0);
  })
  .catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
