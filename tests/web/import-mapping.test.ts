import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  commitMapping,
  mappingProblems,
  mappingTargets,
  suggestMapping,
  type MappingChoice,
  type MappingTarget,
} from '../../web/features/device/importMapping.ts';

const none = { suggestedMapping: {}, suggestedCredentialsColumn: null };

describe('import column mapping', () => {
  it("keeps the server's exact suggestions", () => {
    const choice = suggestMapping({ columns: ['name', 'alias', 'token'], suggestedMapping: { name: 0, alias: 1 }, suggestedCredentialsColumn: 2 });
    expect(choice).toMatchObject({ name: 0, alias: 1, token: 2, label: null });
  });

  it('maps Chinese headers that only contain a field name', () => {
    const choice = suggestMapping({ columns: ['设备名称(必填)', '设备别名 ', '经度', '纬度', '安装地址', '访问令牌'], ...none });
    expect(choice).toMatchObject({ name: 0, alias: 1, longitude: 2, latitude: 3, address: 4, token: 5 });
  });

  it('maps English headers written with spaces, case and marks', () => {
    const choice = suggestMapping({ columns: ['Device Name *', 'Address Code', 'Longitude', 'Latitude', 'Remark'], ...none });
    expect(choice).toMatchObject({ name: 0, addressCode: 1, longitude: 2, latitude: 3, description: 4, address: null });
  });

  it('does not read a short spelling inside a longer word', () => {
    const choice = suggestMapping({ columns: ['platform', 'along'], ...none });
    expect(choice.latitude).toBeNull();
    expect(choice.longitude).toBeNull();
  });

  it('gives each column to one field only', () => {
    const choice = suggestMapping({ columns: ['name'], suggestedMapping: { name: 0, alias: 0 }, suggestedCredentialsColumn: 0 });
    expect(choice).toMatchObject({ name: 0, alias: null, token: null });
  });

  it('ignores a suggested column past the header', () => {
    expect(suggestMapping({ columns: ['x'], suggestedMapping: { name: 3 }, suggestedCredentialsColumn: null }).name).toBeNull();
  });
});

describe('import mapping checks', () => {
  const base = suggestMapping({ columns: ['name', 'alias'], suggestedMapping: { name: 0, alias: 1 }, suggestedCredentialsColumn: null });

  it('requires a name column', () => {
    expect(mappingProblems({ ...base, name: null })).toEqual([{ target: 'name', key: 'mapping.nameRequired' }]);
  });

  it('refuses one column for two fields, naming the second', () => {
    const choice: MappingChoice = { ...base, label: 1 };
    expect(mappingProblems(choice)).toEqual([{ target: 'label', key: 'mapping.columnTwice' }]);
  });

  it('commits only the chosen fields and the token column', () => {
    expect(commitMapping({ ...base, token: 1, alias: null })).toEqual({ mapping: { name: 0 }, credentialsColumn: 1 });
    expect(commitMapping(base)).toEqual({ mapping: { name: 0, alias: 1 }, credentialsColumn: null });
  });
});

describe('the downloadable import template', () => {
  for (const lang of ['zh_CN', 'en_US'] as const) {
    it(`maps every header of the ${lang} template to its field`, () => {
      const locale = JSON.parse(readFileSync(join(import.meta.dirname, `../../locales/${lang}/deviceImport.json`), 'utf8')) as {
        targets: Record<MappingTarget, string>;
      };
      const columns = mappingTargets.map((target) => locale.targets[target]);
      const choice = suggestMapping({ columns, suggestedMapping: {}, suggestedCredentialsColumn: null });
      expect(mappingTargets.map((target) => choice[target])).toEqual(mappingTargets.map((_, i) => i));
    });
  }
});
