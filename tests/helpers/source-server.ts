/**
 * The gateway as its own process without a build: an executable that runs server/main.ts from
 * source through tsx, for tests of what only a process shows (exit codes, SIGKILL, one data dir
 * shared by two processes). Pass it to startBinary as `binary`, or spawn it directly.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../../scripts/build.ts';

/** Writes the executable into `dir` and returns its path. */
export function sourceServer(dir: string): string {
  const script = join(dir, 'edge-console-from-source');
  const tsx = join(root, 'node_modules/tsx/dist/esm/index.mjs');
  const sql = join(root, 'tests/helpers/sql-text-loader.mjs');
  writeFileSync(script, `#!/bin/sh\nexec "${process.execPath}" --import "${tsx}" --import "${sql}" "${join(root, 'server/main.ts')}" "$@"\n`);
  chmodSync(script, 0o755);
  return script;
}
