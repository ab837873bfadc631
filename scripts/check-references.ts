/**
 * `npm run lint:refs`: fails when docs/*.md, README.md or a comment under server/, web/, scripts/
 * or tests/ names a file or folder that does not exist (scripts/lib/file-references.ts says what
 * counts as a reference), listing each as file:line.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { referencesOfFile, type Reference } from './lib/file-references.ts';

const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  .split('\0')
  .filter(Boolean);
const known = new Set<string>();
for (const file of tracked) {
  known.add(file);
  for (let dir = dirname(file); dir !== '.'; dir = dirname(dir)) known.add(dir);
}
const exists = (target: string): boolean => known.has(target.replace(/\/$/, '')) || existsSync(target);

const scanned = tracked.filter((f) => /^docs\/[^/]+\.md$/.test(f) || f === 'README.md' || /^(?:server|web|scripts|tests)\//.test(f));
const unresolved: { file: string; ref: Reference }[] = [];
for (const file of scanned) {
  if (!existsSync(file)) continue;
  for (const ref of referencesOfFile(file, readFileSync(file, 'utf8')) ?? []) {
    if (!exists(ref.target)) unresolved.push({ file, ref });
  }
}
// What the build or a run makes (dist/, .data/, .keys/) is git-ignored: naming it is no error.
const ignored = unresolved.length
  ? new Set(
      spawnSync('git', ['check-ignore', '--no-index', '--stdin'], { input: unresolved.flatMap((u) => [u.ref.target, `${u.ref.target}/`]).join('\n'), encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean),
    )
  : new Set<string>();
const missing = unresolved
  .filter(({ ref }) => !ignored.has(ref.target) && !ignored.has(`${ref.target}/`))
  .map(({ file, ref }) => `${file}:${ref.line}: ${ref.text}${ref.target === ref.text ? '' : ` (${ref.target})`} does not exist`);
if (missing.length) {
  console.error(missing.join('\n'));
  console.error(`${missing.length} reference(s) to files that do not exist`);
  process.exit(1);
}
