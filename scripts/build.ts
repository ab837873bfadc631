/**
 * Builds the console (web/ → dist/web, code-split ESM with hashed names, pre-compressed) and the
 * server (server/main.ts → dist/server/main.cjs, every npm dependency inlined) in one go, then
 * prints the sizes. Run: `npx tsx scripts/build.ts`. docs/BUILD.md explains the choices.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { build, type Metafile, type Plugin } from 'esbuild';
import { cssInChunks, webSources } from './web-build-plugins.ts';
import { PALETTE_SOURCE_DIR, readPaletteDir } from '../server/modules/node-red/node-red-palette-files.ts';

export const root = join(import.meta.dirname, '..');
export const dist = join(root, 'dist');
export const webOut = join(dist, 'web');
export const serverOut = join(dist, 'server', 'main.cjs');
export const webMetaFile = join(dist, 'web-meta.json');
export const webEntry = 'web/main.tsx';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Extensions whose files are text and worth pre-compressing. */
export const textExtensions = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.txt', '.map', '.webmanifest']);

export function buildVersion(): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    return sha ? `${pkg.version}+${sha}` : pkg.version;
  } catch {
    return pkg.version;
  }
}

/**
 * Public keys to trust without a flag. Only PUBLIC KEY blocks are taken: the folder that holds
 * them usually holds the private key too, and that must never end up inside a shipped binary.
 */
function publicKeysIn(dir: string | undefined): string[] {
  if (!dir) return [];
  const keys: string[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.pem')).sort()) {
    const pem = readFileSync(join(dir, name), 'utf8');
    if (/-----BEGIN PUBLIC KEY-----/.test(pem) && !/PRIVATE KEY/.test(pem)) keys.push(pem.trim());
    else console.warn(`build: skipped ${name} (not a public key)`);
  }
  return keys;
}

/**
 * Arco's per-component `style/index.js` imports `.less` sources; the package ships the compiled
 * `.css` beside each one, so take that instead of bundling a less compiler.
 */
const lessToCss: Plugin = {
  name: 'less-to-css',
  setup(b) {
    b.onResolve({ filter: /\.less$/ }, (args) => {
      const css = join(args.resolveDir, args.path).replace(/\.less$/, '.css');
      if (existsSync(css)) return { path: css };
      return { errors: [{ text: `no compiled .css beside ${args.path}; the console cannot bundle .less sources` }] };
    });
  },
};

/** Exact text replacements in one dependency file of the server bundle, each with its reason. */
interface LibraryEdit {
  /** The file, as a path regexp. */
  file: RegExp;
  edits: [from: string, to: string][];
}

/**
 * Build-time edits of dependency sources, for costs the libraries offer no option against. The
 * build fails if a library's source no longer has the text an edit rewrites, so an upgrade cannot
 * drop one silently.
 */
const libraryEdits: LibraryEdit[] = [
  // mqtt-packet (the MQTT codec of the device transport) fills a table of 65,536 two-byte Buffers on the first packet it
  // writes, to save one 2-byte allocation per message id: ~8 MB of heap on every gateway with a
  // device connected. The bundle takes the library's own `cacheNumbers = false` path instead.
  {
    file: /[\\/]mqtt-packet[\\/]writeToStream\.js$/,
    edits: [
      ['let writeNumber = writeNumberCached', 'let writeNumber = writeNumberGenerated'],
      ['let toGenerate = true', 'let toGenerate = false'],
    ],
  },
  // fastify loads node:http2 at require time (~16 ms of every start) although it is used only for
  // `http2: true` servers, which the gateway never makes: load it on that path only.
  {
    file: /[\\/]fastify[\\/]lib[\\/]server\.js$/,
    edits: [
      [
        "const http2 = require('node:http2')",
        "const http2 = { createServer: (...a) => require('node:http2').createServer(...a), createSecureServer: (...a) => require('node:http2').createSecureServer(...a) }",
      ],
    ],
  },
  // mqtt.js takes its keep-alive timer from worker-timers in a browser only; on Node it uses
  // setInterval. Requiring it anyway bundles worker-timers and its broker (~21 KB) for nothing.
  {
    file: /[\\/]mqtt[\\/]build[\\/]lib[\\/]get-timer\.js$/,
    edits: [['const worker_timers_1 = require("worker-timers");', 'const worker_timers_1 = { setInterval, clearInterval };']],
  },
  // archiver-utils 2 (archiver's, for exceljs' .xlsx downloads) still calls the deprecated Buffer
  // constructor. Node warns about that only for code outside node_modules, which bundled code is:
  // the first .xlsx written would print a DEP0005 warning on every gateway. Only the top-level
  // copy: zip-stream's own archiver-utils 3 no longer does.
  {
    file: new RegExp(`^${join(root, 'node_modules', 'archiver-utils', 'index.js').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
    edits: [
      ['return new Buffer(0);', 'return Buffer.alloc(0);'],
      ['return new Buffer(source);', 'return Buffer.from(source);'],
      ['var buf = new Buffer(size);', 'var buf = Buffer.alloc(size);'],
    ],
  },
];

const editedLibraries: Plugin = {
  name: 'edited-libraries',
  setup(b) {
    for (const { file, edits } of libraryEdits) {
      b.onLoad({ filter: file }, (args) => {
        let contents = readFileSync(args.path, 'utf8');
        for (const [from, to] of edits) {
          if (!contents.includes(from)) return { errors: [{ text: `library changed: no \`${from}\` in ${args.path}` }] };
          contents = contents.replace(from, to);
        }
        return { contents, loader: 'js' };
      });
    }
  },
};

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** Writes `.br` and `.gz` next to every text file where they are smaller than the original. */
async function precompress(dir: string): Promise<void> {
  const files = walk(dir).filter((f) => textExtensions.has(extname(f)));
  await Promise.all(
    files.map(async (file) => {
      const body = readFileSync(file);
      const [br, gzipped] = await Promise.all([
        brotli(body, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: 11,
            [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
            [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
          },
        }),
        gz(body, { level: 9 }),
      ]);
      if (br.length < body.length) writeFileSync(`${file}.br`, br);
      if (gzipped.length < body.length) writeFileSync(`${file}.gz`, gzipped);
    }),
  );
}

/** The entry's script, its stylesheet and the chunks it needs before it runs (preloaded in parallel). */
function entryFiles(meta: Metafile): { script: string; css: string | undefined; preload: string[] } {
  const entry = Object.entries(meta.outputs).find(([, o]) => o.entryPoint === webEntry);
  if (!entry) throw new Error(`build: no output for ${webEntry} in the metafile`);
  const [script, output] = entry;
  const url = (p: string): string => `/${relative('dist/web', p)}`;
  // Chunks import chunks: preloading the whole static closure saves round trips on a slow LAN.
  const closure = new Set<string>();
  const visit = (out: string): void => {
    for (const i of meta.outputs[out]?.imports ?? []) {
      if (i.kind !== 'import-statement' || i.external || closure.has(i.path)) continue;
      closure.add(i.path);
      visit(i.path);
    }
  };
  visit(script);
  return {
    script: url(script),
    css: output.cssBundle ? url(output.cssBundle) : undefined,
    preload: [...closure].map(url),
  };
}

function writeIndexHtml(meta: Metafile): void {
  let html = readFileSync(join(root, 'web/index.html'), 'utf8');
  // The source page may point at main.tsx for a dev server; the built one points at the bundle.
  html = html.replace(/\s*<script\b[^>]*\bsrc=["'][^"']*main\.tsx["'][^>]*>\s*<\/script>/g, '');
  const { script, css, preload } = entryFiles(meta);
  const tags = [
    ...(css ? [`<link rel="stylesheet" href="${css}">`] : []),
    ...preload.map((p) => `<link rel="modulepreload" href="${p}">`),
    `<script type="module" src="${script}"></script>`,
  ].join('\n    ');
  if (!html.includes('</head>')) throw new Error('build: web/index.html has no </head>');
  html = html.replace(/\s*<\/head>/, `\n    ${tags}\n  </head>`);
  writeFileSync(join(webOut, 'index.html'), html);
}

export async function buildWeb(): Promise<Metafile> {
  rmSync(webOut, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: [webEntry],
    outdir: 'dist/web',
    publicPath: '/',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    // Safari 14 has a destructuring bug esbuild cannot lower, so 15 is the floor.
    target: ['es2020', 'chrome90', 'firefox90', 'safari15'],
    minify: true,
    entryNames: 'assets/[name]-[hash]',
    chunkNames: 'assets/[name]-[hash]',
    assetNames: 'assets/[name]-[hash]',
    jsx: 'automatic',
    alias: {
      react: 'preact/compat',
      'react-dom': 'preact/compat',
      'react-dom/client': 'preact/compat/client',
      'react/jsx-runtime': 'preact/jsx-runtime',
      'react/jsx-dev-runtime': 'preact/jsx-runtime',
      // The browser needs the contract's routes and types, not its schemas (web/lib/typebox-shim.ts).
      typebox: './web/lib/typebox-shim.ts',
      'resize-observer-polyfill': './web/lib/resize-observer.ts',
    },
    loader: {
      '.png': 'file',
      '.jpg': 'file',
      '.jpeg': 'file',
      '.gif': 'file',
      '.webp': 'file',
      '.svg': 'file',
      '.ico': 'file',
      '.woff': 'file',
      '.woff2': 'file',
      '.ttf': 'file',
      '.eot': 'file',
      // The offline manual (locales/<lang>/manual.md): text in a lazy chunk per language.
      '.md': 'text',
    },
    plugins: [
      webSources({ root, entry: join(root, webEntry), firstScreen: join(root, 'web/lib/first-screen.ts') }),
      cssInChunks(join(root, 'web/lib/inject-style.ts')),
      lessToCss,
    ],
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  writeIndexHtml(result.metafile);
  writeFileSync(webMetaFile, JSON.stringify(result.metafile));
  await precompress(webOut);
  return result.metafile;
}

/**
 * mqtt.js (the cloud link's client) and bl (mqtt-packet's, the device transport's codec) each ship
 * their own copy of readable-stream 4, which the bundle would carry twice (~55 KB). mqtt.js takes
 * bl's copy when the versions agree; otherwise each keeps its own.
 */
const oneReadableStream: Plugin = {
  name: 'one-readable-stream',
  setup(b) {
    const version = (dir: string): string | null => {
      const file = join(root, 'node_modules', dir, 'node_modules', 'readable-stream', 'package.json');
      return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : null;
    };
    const shared = version('bl');
    if (!shared || shared !== version('mqtt')) return;
    b.onResolve({ filter: /^readable-stream$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]mqtt[\\/]/.test(args.importer)) return undefined;
      return b.resolve('readable-stream', { resolveDir: join(root, 'node_modules', 'bl'), kind: args.kind });
    });
  },
};

export async function buildServer(version: string): Promise<void> {
  await build({
    absWorkingDir: root,
    entryPoints: ['server/main.ts'],
    outfile: serverOut,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    // Whitespace and syntax minification take most of the size off; identifiers stay as written,
    // so stack traces and logged error types from a gateway stay readable. Not keepNames: it
    // wraps every function and class in a __name() call, and aedes creates closures per MQTT
    // packet — measured 3–4 ms of CPU per 1,000 telemetry messages (docs/PERFORMANCE-FINDINGS.md).
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: false,
    loader: { '.sql': 'text' },
    define: {
      EDGE_BUILD_VERSION: JSON.stringify(version),
      EDGE_BUILD_LICENSE_KEYS: JSON.stringify(publicKeysIn(process.env.EDGE_BUILD_LICENSE_KEYS_DIR)),
      // Firmware signing keys the binary trusts besides --firmware-public-key (none by default).
      EDGE_BUILD_FIRMWARE_KEYS: JSON.stringify(publicKeysIn(process.env.EDGE_BUILD_FIRMWARE_KEYS_DIR)),
      // The Node-RED palette's plain files, written into each instance's user dir (node-red-palette-files.ts).
      EDGE_BUILD_NODE_RED_PALETTE: JSON.stringify(readPaletteDir(join(root, PALETTE_SOURCE_DIR))),
    },
    plugins: [editedLibraries, oneReadableStream],
    legalComments: 'none',
    logLevel: 'warning',
    // pino ships optional pretty/transport workers loaded by path; the server logs JSON in-process.
    logOverride: { 'empty-import-meta': 'silent' },
  });
}

function size(file: string): { raw: number; gzip: number } {
  const body = readFileSync(file);
  const gzFile = `${file}.gz`;
  const gzipBytes = existsSync(gzFile) ? statSync(gzFile).size : body.length;
  return { raw: body.length, gzip: gzipBytes };
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function report(meta: Metafile, started: number): void {
  let raw = 0;
  let gzipped = 0;
  const rows: string[] = [];
  for (const out of Object.keys(meta.outputs)) {
    const s = size(join(root, out));
    raw += s.raw;
    gzipped += s.gzip;
    rows.push(`  ${relative('dist/web', out).padEnd(48)} ${kb(s.raw).padStart(10)} ${kb(s.gzip).padStart(10)}`);
  }
  const server = statSync(serverOut).size;
  const serverGz = (() => {
    try {
      return execFileSync('gzip', ['-9c', serverOut]).length;
    } catch {
      return server;
    }
  })();
  console.log(`web (dist/web)${' '.repeat(42)}raw       gzip`);
  console.log(rows.sort().join('\n'));
  console.log(`  ${'total'.padEnd(48)} ${kb(raw).padStart(10)} ${kb(gzipped).padStart(10)}`);
  console.log(`server (dist/server/main.cjs)${' '.repeat(27)}${kb(server).padStart(10)} ${kb(serverGz).padStart(10)}`);
  console.log(`built in ${Date.now() - started} ms`);
}

async function main(): Promise<void> {
  const started = Date.now();
  mkdirSync(dirname(serverOut), { recursive: true });
  const version = buildVersion();
  const [meta] = await Promise.all([buildWeb(), buildServer(version)]);
  console.log(`edge-console ${version}`);
  report(meta, started);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
