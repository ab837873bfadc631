/**
 * Runs the built server bundle (dist/server/main.cjs) on the pinned Node as a child process with
 * the caller's terminal, forwarding Ctrl-C/SIGTERM, for `npm start` and `npm run demo`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../build.ts';

export const serverBundle = join(root, 'dist/server/main.cjs');

export function runServer(args: string[], opts: { quietStdout?: boolean } = {}): ChildProcess {
  if (!existsSync(serverBundle)) throw new Error(`${serverBundle} is missing: run npm run build first`);
  const child = spawn(process.execPath, [serverBundle, ...args], {
    stdio: ['inherit', opts.quietStdout ? 'pipe' : 'inherit', 'inherit'],
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return child;
}
