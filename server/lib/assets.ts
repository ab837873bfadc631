/**
 * Where the console's built files come from: the assets embedded in the single executable, or
 * `dist/web` beside the server bundle, or nowhere (API tests, `tsx server/main.ts` before a build).
 *
 * Files are read on first request and kept: in the binary `getRawAsset` hands out a view of the
 * executable's own mapped pages (no copy), from a folder the whole console is a few MB at most.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import * as sea from 'node:sea';
import { gunzipSync } from 'node:zlib';

export interface Asset {
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  contentType: string;
  /** Hashed names under /assets/ never change content: cached for a year. */
  immutable: boolean;
  /** Weak validator shared by every encoding of the file. */
  etag: string;
}

export interface AssetSource {
  /** `path` is the URL path, e.g. `/index.html` or `/assets/main-AB12CD.js`. */
  get(path: string): Asset | undefined;
}

/** One file of the console as listed in the manifest embedded in the binary. */
export interface AssetManifestEntry {
  path: string;
  br: boolean;
  gzip: boolean;
  /**
   * False when only the compressed copies are stored (the binary leaves out the plain text of
   * files that have a `.gz`: every browser takes gzip, and the rare client that does not gets
   * it inflated once on demand).
   */
  raw?: boolean;
}

export interface AssetManifest {
  files: AssetManifestEntry[];
}

/** SEA asset keys: the manifest, and each file under `web/` with its URL path. */
export const SEA_MANIFEST_KEY = 'web-manifest.json';
export function seaAssetKey(urlPath: string): string {
  return `web${urlPath}`;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
};

export function contentTypeOf(path: string): string {
  return contentTypes[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** Lists a built console folder: every file that is not itself a `.br`/`.gz` variant. */
export function manifestOfDirectory(dir: string): AssetManifest {
  const files: AssetManifestEntry[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (!/\.(br|gz)$/.test(e.name)) {
        files.push({
          path: `/${relative(dir, full).split(sep).join('/')}`,
          br: existsSync(`${full}.br`),
          gzip: existsSync(`${full}.gz`),
        });
      }
    }
  };
  walk(dir);
  files.sort((a, b) => a.path.localeCompare(b.path));
  return { files };
}

type Reader = (key: string) => Buffer;

function sourceFrom(manifest: AssetManifest, read: Reader): AssetSource {
  const listed = new Map(manifest.files.map((f) => [f.path, f]));
  const cache = new Map<string, Asset>();
  return {
    get(path) {
      const hit = cache.get(path);
      if (hit) return hit;
      const entry = listed.get(path);
      if (!entry) return undefined;
      const gzip = entry.gzip ? read(`${path}.gz`) : undefined;
      let body = entry.raw === false ? undefined : read(path);
      if (!body && !gzip) return undefined;
      const asset: Asset = {
        get body() {
          body ??= gunzipSync(gzip!);
          return body;
        },
        contentType: contentTypeOf(path),
        immutable: path.startsWith('/assets/'),
        etag: `W/"${createHash('sha1').update(body ?? gzip!).digest('base64url').slice(0, 16)}"`,
        ...(entry.br ? { br: read(`${path}.br`) } : {}),
        ...(gzip ? { gzip } : {}),
      };
      cache.set(path, asset);
      return asset;
    },
  };
}

/** Serves a built console folder (`dist/web`, or a folder a test wrote). Null without index.html. */
export function directoryAssets(dir: string): AssetSource | null {
  if (!existsSync(join(dir, 'index.html')) || !statSync(dir).isDirectory()) return null;
  return sourceFrom(manifestOfDirectory(dir), (path) => readFileSync(join(dir, ...path.split('/'))));
}

function seaAssets(): AssetSource | null {
  let manifest: AssetManifest;
  try {
    manifest = JSON.parse(sea.getAsset(SEA_MANIFEST_KEY, 'utf8')) as AssetManifest;
  } catch {
    return null; // a binary built without the console (API-only)
  }
  return sourceFrom(manifest, (path) => Buffer.from(sea.getRawAsset(seaAssetKey(path))));
}

/** The bundle lives in dist/server/main.cjs, so the console is dist/web beside it. */
function bundleDir(): string {
  return typeof __dirname === 'string' ? __dirname : dirname(process.argv[1] ?? '.');
}

export function loadAssets(): AssetSource | null {
  if (sea.isSea()) return seaAssets();
  return directoryAssets(join(bundleDir(), '..', 'web'));
}
