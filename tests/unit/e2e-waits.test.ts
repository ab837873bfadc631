import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/build.ts';

const dir = join(root, 'tests', 'e2e');
const specs = readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => ({ file: f, source: readFileSync(join(dir, f), 'utf8') }));

/** The argument text of the call whose `(` is at `open` (parentheses balanced; strings are not parsed, none of ours holds one). */
function argumentsAt(source: string, open: number): string {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === '(') depth++;
    else if (source[i] === ')' && --depth === 0) return source.slice(open + 1, i);
  }
  return source.slice(open + 1);
}

const lineOf = (source: string, index: number): number => source.slice(0, index).split('\n').length;

describe('e2e waits', () => {
  it('give every expect.poll the shared timeout (its default gives up after 1 s)', () => {
    const bare = specs.flatMap(({ file, source }) =>
      [...source.matchAll(/expect\s*\.poll\(/g)]
        .filter((m) => !argumentsAt(source, m.index + m[0].length - 1).includes('E2E_POLL'))
        .map((m) => `${file}:${lineOf(source, m.index)}`),
    );
    expect(bare).toEqual([]);
  });

  it('name no timeout of their own in milliseconds (tests/helpers/e2e-wait.ts holds the one)', () => {
    const literal = specs.flatMap(({ file, source }) =>
      [...source.matchAll(/timeout:\s*\d/gi)].map((m) => `${file}:${lineOf(source, m.index)}`),
    );
    expect(literal).toEqual([]);
  });
});
