import { describe, expect, it } from 'vitest';
import { referencesOfFile } from '../../scripts/lib/file-references.ts';

const targets = (file: string, source: string): string[] => (referencesOfFile(file, source) ?? []).map((r) => `${r.line}:${r.target}`);

describe('the references a doc or a comment makes to files', () => {
  it('finds repository paths in line and block comments, with their lines, and none in code or strings', () => {
    const source = [
      "const a = 'server/modules/gone/in-a-string.ts'; // server/modules/alarm/alarm-service.ts",
      '/**',
      ' * Read web/features/alarm/ first,',
      ' * then docs/API.md.',
      ' */',
      'const b = `tests/e2e/in-a-template.spec.ts`;',
    ].join('\n');
    expect(targets('server/x.ts', source)).toEqual(['1:server/modules/alarm/alarm-service.ts', '3:web/features/alarm/', '4:docs/API.md']);
  });

  it('does not take a regular expression literal for a comment', () => {
    expect(targets('web/x.ts', "const r = /\\/\\/ server\\/gone.ts/; const s = x.split(/'/); // web/lib/api-client.ts")).toEqual(['1:web/lib/api-client.ts']);
  });

  it('skips placeholders, patterns and URLs', () => {
    const source = '// server/modules/<name>/x.ts server/db/migrations/NNNN-what.sql server/modules/B/*-repository.ts https://example.com/server/a.ts';
    expect(targets('server/x.ts', source)).toEqual([]);
  });

  it('resolves a dot-slash path of a comment against the file, and Markdown links against the page', () => {
    expect(targets('server/modules/alarm/alarm-module.ts', '// see ./alarm-routes.ts.')).toEqual(['1:server/modules/alarm/alarm-routes.ts']);
    expect(targets('docs/ARCHITECTURE.md', 'See [the API](API.md#errors) and [the README](../README.md).')).toEqual(['1:README.md', '1:docs/API.md']);
  });

  it('reads rooted paths in fenced Markdown code, but not relative ones', () => {
    const page = ['```ts', "declare module '../../module.ts' {}", '// server/module.ts', '```'].join('\n');
    expect(targets('docs/ARCHITECTURE.md', page)).toEqual(['3:server/module.ts']);
  });

  it('reads shell comments after a hash', () => {
    expect(targets('scripts/x.sh', '#!/bin/bash\necho hi # scripts/build.ts')).toEqual(['2:scripts/build.ts']);
  });
});
