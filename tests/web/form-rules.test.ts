import { describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { OrganizationNameSchema, OrganizationSortSchema } from '../../server/contract/organization.ts';
import { nameProblem, sortProblem } from '../../server/contract/rules/field.ts';

describe('form rules refuse exactly what the server refuses', () => {
  it('agrees with the contract on names', () => {
    const samples = ['总部', 'Plant_01', 'a-b@(c)', 'x'.repeat(30), 'x'.repeat(31), 'two words', 'bad!', 'tab\t', '', '温度-A(1)', 'émile'];
    for (const name of samples) expect([name, nameProblem(name) === null]).toEqual([name, Value.Check(OrganizationNameSchema, name)]);
  });

  it('names the server text of each refusal', () => {
    expect(nameProblem('  ')).toEqual({ key: 'error.field.required' });
    expect(nameProblem('a b')).toEqual({ key: 'error.field.name' });
    expect(nameProblem('a'.repeat(31))).toEqual({ key: 'error.field.name' });
  });

  it('agrees with the contract on int32 sort values', () => {
    const samples = [0, -1, 2147483647, 2147483648, -2147483648, -2147483649, 1.5];
    for (const sort of samples) expect([sort, sortProblem(sort) === null]).toEqual([sort, Value.Check(OrganizationSortSchema, sort)]);
    expect(sortProblem(undefined)).toBeNull();
    expect(sortProblem(1.5)).toEqual({ key: 'error.field.sort' });
  });
});
