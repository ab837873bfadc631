/**
 * Where Node-RED is installed and how a runtime process is started (server/cli/node-red-runtime.ts).
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isSea } from 'node:sea';

/**
 * V8 flags of every runtime process. The old-space cap bounds a runaway flow. The young generation
 * is held to 2 MB semi-spaces: V8's default (up to 16 MB each, grown on allocation bursts at boot)
 * stayed resident after Node-RED loaded and made an idle instance 155-160 MB; at 2 MB it idles at
 * about 131-134 MB (issue 29's budget: 150 MB) and the editor starts as fast. 1 MB saved no more.
 */
export const RUNTIME_V8_FLAGS: readonly string[] = ['--max-old-space-size=256', '--max-semi-space-size=2'];

/**
 * The installed `node-red` package directory: `--node-red-dir` when given (and only it), else
 * `node-red` beside the binary, else `../lib/edge-console/node-red` from it (where firmware-pack's
 * edge-console-node-red package puts it beside /usr/bin/edge-console), else the project's
 * node_modules (development); null when none holds a package.json.
 */
export function findNodeRedDir(configured: string | null): string | null {
  const beside = dirname(process.execPath);
  const candidates = configured
    ? [resolve(configured)]
    : [join(beside, 'node-red'), join(beside, '..', 'lib', 'edge-console', 'node-red'), resolve('node_modules', 'node-red')];
  return candidates.find((dir) => existsSync(join(dir, 'package.json'))) ?? null;
}

/**
 * The command line that runs `node-red-runtime`: the binary's own sub-command; a bundle run by
 * node (`node dist/main.cjs`) the same through the bundle; in development and tests the runtime's
 * source file under Node's type stripping.
 */
export function runtimeCommand(): { file: string; args: string[] } {
  if (isSea()) return { file: process.execPath, args: ['node-red-runtime'] };
  const entry = process.argv[1] ?? '';
  if (entry.endsWith('.cjs')) return { file: process.execPath, args: [entry, 'node-red-runtime'] };
  return { file: process.execPath, args: [resolve('server', 'cli', 'node-red-runtime.ts')] };
}
