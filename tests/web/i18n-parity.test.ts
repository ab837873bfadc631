import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findParityProblems, localesDir, namespacesFile } from '../../web/i18n/check-parity.ts';

function fixture(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'i18n-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const index = "import a from './a.json';\n";

describe('locale parity', () => {
  it('finds no difference between the shipped zh_CN and en_US locales', () => {
    expect(findParityProblems(localesDir, namespacesFile)).toEqual([]);
  });

  it('reports a key that only one language has', () => {
    const dir = fixture({
      'zh_CN/a.json': '{"x":"甲","y":"乙"}', 'zh_CN/index.ts': index,
      'en_US/a.json': '{"x":"A"}', 'en_US/index.ts': index,
    });
    expect(findParityProblems(dir)).toEqual(['a:y missing in en_US']);
  });

  it('reports differing placeholders and a namespace missing from an index', () => {
    const dir = fixture({
      'zh_CN/a.json': '{"x":"{{n}} 个"}', 'zh_CN/index.ts': index, 'zh_CN/b.json': '{}',
      'en_US/a.json': '{"x":"{{count}} items"}', 'en_US/index.ts': index, 'en_US/b.json': '{}',
    });
    const problems = findParityProblems(dir);
    expect(problems).toContain('a:x placeholders differ between zh_CN and en_US');
    expect(problems).toContain('zh_CN/index.ts does not import b.json');
  });
});
