/**
 * esbuild plugins of the web build that keep each page's download to what it uses (page-size
 * budgets in docs/BENCHMARKS.md). Page code imports each Arco component or icon by its own path
 * (`import Button from '@arco-design/web-react/es/Button'`, enforced in .oxlintrc.json); the build
 * adds the component's stylesheet, and still splits a barrel import should one slip through.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transform, type Plugin } from 'esbuild';

const arcoRoot = '@arco-design/web-react';

/**
 * Rewrites barrel imports of Arco components and icons into one import per component plus that
 * component's compiled stylesheet. Through the barrel, esbuild's splitting puts every component any
 * page uses into chunks that every importing page loads (the login page pulled Menu and Drawer).
 */
export function arcoImportRewriter(root: string): (source: string) => string {
  const esDir = join(root, 'node_modules', arcoRoot, 'es');
  const hasComponent = (name: string): boolean => existsSync(join(esDir, name, 'index.js'));
  const hasStyle = (name: string): boolean => existsSync(join(esDir, name, 'style', 'css.js'));
  const styleOf = (name: string): string => (hasStyle(name) ? `import '${arcoRoot}/es/${name}/style/css.js';` : '');

  const barrel = /import\s*\{([^}]*)\}\s*from\s*['"]@arco-design\/web-react(\/icon)?['"];?/g;
  const direct = /import\s+(\w+)\s+from\s*['"]@arco-design\/web-react\/es\/(\w+)['"];?/g;

  return (source) =>
    source
      .replace(barrel, (whole, list: string, icon: string | undefined) => {
        const out: string[] = [];
        const keep: string[] = [];
        for (const raw of list.split(',').map((s) => s.trim()).filter(Boolean)) {
          if (raw.startsWith('type ')) {
            keep.push(raw);
            continue;
          }
          const [name, alias = name] = raw.split(/\s+as\s+/).map((s) => s.trim()) as [string, string?];
          if (icon) out.push(`import ${alias} from '${arcoRoot}/icon/react-icon/${name}';`);
          else if (hasComponent(name)) out.push(`import ${alias} from '${arcoRoot}/es/${name}';`, styleOf(name));
          else keep.push(raw); // not a component folder (a helper export): leave it on the barrel
        }
        if (keep.length) out.push(`import { ${keep.join(', ')} } from '${arcoRoot}${icon ?? ''}';`);
        return out.length ? out.join(' ') : whole;
      })
      .replace(direct, (whole, alias: string, name: string) => `${whole} ${styleOf(name)}`);
}

/**
 * The console's own modules as esbuild loads them: Arco imports per component (above), and the
 * entry plus every lazily loaded module importing `firstScreen` (web/lib/first-screen.ts says
 * why). Only entry points get that import: nothing imports them, so no cycle can make a module run
 * before one it depends on.
 */
export function webSources(opts: { root: string; entry: string; firstScreen: string }): Plugin {
  const rewriteArco = arcoImportRewriter(opts.root);
  const isWebSource = /[\\/]web[\\/].*\.tsx?$/;
  return {
    name: 'web-sources',
    setup(b) {
      const entryPoints = new Set<string>([opts.entry]);
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData === 'web-sources') return undefined;
        const result = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: 'web-sources',
        });
        if (result.errors.length) return undefined;
        if (isWebSource.test(result.path)) entryPoints.add(result.path);
        return { path: result.path, external: result.external, sideEffects: result.sideEffects };
      });
      b.onLoad({ filter: isWebSource }, (args) => {
        let source = readFileSync(args.path, 'utf8');
        const entry = entryPoints.has(args.path) && args.path !== opts.firstScreen;
        if (!entry && !source.includes(arcoRoot)) return undefined;
        source = rewriteArco(source);
        if (entry) source = `import ${JSON.stringify(opts.firstScreen)};\n${source}`;
        return { contents: source, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
      });
    },
  };
}

/**
 * Turns every CSS import into a call that injects the (minified) CSS when its chunk runs, so each
 * lazily loaded page carries its own styles. esbuild would otherwise write per-chunk stylesheets
 * that nothing loads, or fold them all into the entry's.
 */
export function cssInChunks(injector: string): Plugin {
  return {
    name: 'css-in-chunks',
    setup(b) {
      b.onLoad({ filter: /\.css$/ }, async (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (/url\(\s*['"]?(?!data:)/.test(source)) {
          return { errors: [{ text: `${args.path}: url() references are not supported by the CSS injector` }] };
        }
        const { code } = await transform(trimUnusedGrid(args.path, source), {
          loader: 'css',
          minify: true,
          target: ['chrome90', 'safari15'],
        });
        return {
          contents: `import { injectStyle } from ${JSON.stringify(injector)}; injectStyle(${JSON.stringify(code)});`,
          loader: 'js',
          resolveDir: root(args.path),
        };
      });
    },
  };
}

/**
 * Arco's grid stylesheet is 80 KB, almost all of it responsive (xs…xxxl), push, pull and order
 * column classes for every span, each also in an RTL variant. Forms need only `.arco-row` and
 * `.arco-col-<span>` (and offset); no console page uses the responsive props. A page that starts
 * to must take that class family out of this pattern.
 */
const unusedGridClass = /\.arco-col-(?:(?:xs|sm|md|lg|xl|xxl|xxxl)-|push-|pull-|order-)/;

function trimUnusedGrid(path: string, css: string): string {
  if (!/web-react[\\/]es[\\/]Grid[\\/]style[\\/]index\.css$/.test(path)) return css;
  // Innermost rules only (`selectors{declarations}`); a rule goes when all its selectors are unused.
  return css
    .replace(/([^{}]+)\{([^{}]*)\}/g, (rule, selectors: string) =>
      selectors.split(',').every((sel) => unusedGridClass.test(sel)) ? '' : rule,
    )
    .replace(/@media[^{]*\{\s*\}/g, '');
}

function root(path: string): string {
  return path.slice(0, Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')));
}
