/**
 * Runs one of the storage children (compaction-child.ts, staging-move-child.ts, prune-child.ts)
 * on a database file and, when told, kills it with SIGKILL as soon as it prints `killOn`: the
 * crash tests' way of stopping a process in the middle of its transactions. Returns what it printed.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { root } from '../../scripts/build.ts';

export async function runStorageChild(child: string, args: readonly string[], killOn: string | null): Promise<string[]> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', join(root, 'tests/helpers/sql-text-loader.mjs'), join(root, 'tests/helpers', child), ...args],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines: string[] = [];
  const exited = once(proc, 'exit');
  for await (const line of createInterface({ input: proc.stdout })) {
    lines.push(line);
    if (killOn !== null && line === killOn) proc.kill('SIGKILL');
  }
  await exited;
  return lines;
}
