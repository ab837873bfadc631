/**
 * Host tools faked at the process boundary for the appliers that call them (`timedatectl`,
 * `systemctl`, `date`): shell scripts first on this process's PATH (restored after the test) that
 * record every call and print a canned answer for a given first argument.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { tempDir } from './app.ts';

let savedPath: string | undefined;
afterEach(() => {
  if (savedPath !== undefined) process.env.PATH = savedPath;
  savedPath = undefined;
});

/** `tools`: command → (first argument → what it prints); every other call prints nothing and succeeds. */
export function installRecordingStubs(tools: Record<string, Record<string, string>>): { calls(): string[][] } {
  const dir = tempDir('edge-stub-');
  for (const [tool, answers] of Object.entries(tools)) {
    const cases = Object.keys(answers).map((arg, i) => {
      writeFileSync(join(dir, `${tool}.${i}.out`), answers[arg]!);
      return `  '${arg}') cat '${dir}/${tool}.${i}.out' ;;`;
    });
    writeFileSync(join(dir, tool), `#!/bin/sh\nprintf '%s\\t' ${tool} "$@" >> '${dir}/calls'; echo >> '${dir}/calls'\ncase "$1" in\n${cases.join('\n')}\nesac\nexit 0\n`);
    chmodSync(join(dir, tool), 0o755);
  }
  savedPath ??= process.env.PATH;
  process.env.PATH = `${dir}:${process.env.PATH ?? ''}`;
  return {
    calls: () =>
      (existsSync(join(dir, 'calls')) ? readFileSync(join(dir, 'calls'), 'utf8') : '').split('\n').filter(Boolean).map((l) => l.replace(/\t$/, '').split('\t')),
  };
}
