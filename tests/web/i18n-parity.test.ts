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

const list = (...names: string[]): string =>
  `const resources = {\n${names.map((n) => `  ${n}: texts<typeof import('../../locales/zh_CN/${n}.json')>(),\n`).join('')}};\n`;

describe('locale parity', () => {
  it('finds no difference between the shipped zh_CN and en_US locales', () => {
    expect(findParityProblems(localesDir, namespacesFile)).toEqual([]);
  });

  it('reports a key that only one language has', () => {
    const dir = fixture({ 'zh_CN/a.json': '{"x":"甲","y":"乙"}', 'en_US/a.json': '{"x":"A"}', 'namespaces.ts': list('a') });
    expect(findParityProblems(dir, join(dir, 'namespaces.ts'))).toEqual(['a:y missing in en_US']);
  });

  it('reports differing placeholders and a namespace missing from the namespace list', () => {
    const dir = fixture({
      'zh_CN/a.json': '{"x":"{{n}} 个"}', 'zh_CN/b.json': '{}',
      'en_US/a.json': '{"x":"{{count}} items"}', 'en_US/b.json': '{}',
      'namespaces.ts': list('a'),
    });
    const problems = findParityProblems(dir, join(dir, 'namespaces.ts'));
    expect(problems).toContain('a:x placeholders differ between zh_CN and en_US');
    expect(problems).toContain('namespaces.ts does not list b');
  });

  it('reports a listed namespace typed by another file or without files', () => {
    const dir = fixture({
      'zh_CN/a.json': '{}', 'en_US/a.json': '{}',
      'namespaces.ts': `${list('c')}  a: texts<typeof import('../../locales/zh_CN/b.json')>(),\n`,
    });
    expect(findParityProblems(dir, join(dir, 'namespaces.ts'))).toEqual([
      'namespaces.ts lists c, which has no JSON file',
      'namespaces.ts types a by b.json',
    ]);
  });
});
