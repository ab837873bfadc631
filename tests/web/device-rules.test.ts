import { describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { AddressCodeSchema, DeviceNameSchema } from '../../server/contract/device.ts';
import { addressCodeProblem, aliasProblem, batchCountProblem, locationViolations, normalizeAddressCode } from '../../server/contract/rules/device.ts';
import { nameProblem } from '../../server/contract/rules/field.ts';
import type { Problem } from '../../server/contract/rules/problem.ts';
import { locationBody, locationFormProblems, mapPoint, parseCoordinate } from '../../web/features/device/locationForm.ts';

const key = (p: Problem | null): string | null => p?.key ?? null;
const keys = (problems: Partial<Record<string, Problem>>): Record<string, string> =>
  Object.fromEntries(Object.entries(problems).map(([field, p]) => [field, p!.key]));

describe('device form rules', () => {
  it('accepts a name of Chinese characters, letters, digits and _ - @ ( )', () => {
    expect(nameProblem('温度传感器_A-1@(x)')).toBeNull();
  });

  it('refuses an empty name, a space and a 31-character name', () => {
    expect(key(nameProblem('  '))).toBe('error.field.required');
    expect(key(nameProblem('a b'))).toBe('error.field.name');
    expect(key(nameProblem('a'.repeat(31)))).toBe('error.field.name');
    expect(nameProblem('a'.repeat(30))).toBeNull();
  });

  it('refuses an alias of 37 characters', () => {
    expect(aliasProblem('a'.repeat(36))).toBeNull();
    expect(key(aliasProblem('a'.repeat(37)))).toBe('error.field.alias');
  });

  it('accepts address codes 00 to FF in either case and stores them upper case', () => {
    expect(addressCodeProblem('')).toBeNull();
    expect(addressCodeProblem('0a')).toBeNull();
    expect(addressCodeProblem('FF')).toBeNull();
    expect(key(addressCodeProblem('100'))).toBe('error.field.addressCode');
    expect(key(addressCodeProblem('G1'))).toBe('error.field.addressCode');
    expect(normalizeAddressCode(' 0a ')).toBe('0A');
    expect(normalizeAddressCode('')).toBeNull();
  });
});

describe('device rules refuse exactly what the device schema refuses', () => {
  it('agrees on names and address codes', () => {
    for (const name of ['温度传感器_A-1@(x)', 'a b', 'a'.repeat(30), 'a'.repeat(31), '', ' x', 'émile']) {
      expect([name, nameProblem(name) === null]).toEqual([name, Value.Check(DeviceNameSchema, name)]);
    }
    for (const code of ['00', '0a', 'FF', '100', 'G1', '1']) {
      expect([code, addressCodeProblem(code) === null]).toEqual([code, Value.Check(AddressCodeSchema, code)]);
    }
  });
});

describe('location rules', () => {
  it('reads plain decimals and refuses anything else', () => {
    expect(parseCoordinate(' 116.397 ')).toBe(116.397);
    expect(parseCoordinate('-33.5')).toBe(-33.5);
    expect(parseCoordinate('')).toBeNull();
    expect(parseCoordinate('1e3')).toBeNaN();
    expect(parseCoordinate('12,5')).toBeNaN();
  });

  it('accepts the range limits and refuses beyond them', () => {
    expect(locationFormProblems({ longitude: '180', latitude: '-90' })).toEqual({});
    expect(keys(locationFormProblems({ longitude: '180.01', latitude: '90.5' }))).toEqual({ longitude: 'error.field.longitude', latitude: 'error.field.latitude' });
  });

  it('asks the server and the form for both coordinates or neither, on the missing one', () => {
    expect(locationViolations(120, null)).toEqual([{ field: 'latitude', key: 'error.field.locationIncomplete' }]);
    expect(locationViolations(null, null)).toEqual([]);
    expect(locationFormProblems({ longitude: '', latitude: '' })).toEqual({});
    expect(keys(locationFormProblems({ longitude: '', latitude: '30' }))).toEqual({ longitude: 'error.field.locationIncomplete' });
    expect(keys(locationFormProblems({ longitude: '120', latitude: null }))).toEqual({ latitude: 'error.field.locationIncomplete' });
  });

  it('leaves the both-or-neither rule to a coordinate out of range', () => {
    expect(keys(locationFormProblems({ longitude: '', latitude: '91' }))).toEqual({ latitude: 'error.field.latitude' });
  });

  it('refuses an address of 256 characters, counted as sent (trimmed)', () => {
    expect(locationFormProblems({ longitude: '', latitude: '', address: ` ${'x'.repeat(255)} ` })).toEqual({});
    expect(keys(locationFormProblems({ longitude: '', latitude: '', address: 'x'.repeat(256) }))).toEqual({ address: 'error.field.address' });
  });

  it('sends empty coordinates as null so the position is cleared', () => {
    expect(locationBody({ longitude: '', latitude: '', address: ' ' })).toEqual({ longitude: null, latitude: null, address: null });
    expect(locationBody({ longitude: '120.5', latitude: '30', address: 'Hall 2' })).toEqual({ longitude: 120.5, latitude: 30, address: 'Hall 2' });
  });

  it('places a point on the small map by longitude and latitude', () => {
    expect(mapPoint(0, 0, 360, 180)).toEqual({ x: 180, y: 90 });
    expect(mapPoint(-180, 90, 360, 180)).toEqual({ x: 0, y: 0 });
    expect(mapPoint(180, -90, 360, 180)).toEqual({ x: 360, y: 180 });
  });
});

describe('batch generation count', () => {
  it('accepts 1 and 1000 and refuses 0, 1001, fractions and text', () => {
    expect(batchCountProblem(1)).toBeNull();
    expect(batchCountProblem(1000)).toBeNull();
    expect(key(batchCountProblem(0))).toBe('error.field.batchCount');
    expect(key(batchCountProblem(1001))).toBe('error.field.batchCount');
    expect(key(batchCountProblem(2.5))).toBe('error.field.batchCount');
    expect(key(batchCountProblem('5'))).toBe('error.field.batchCount');
    expect(key(batchCountProblem(undefined))).toBe('error.field.batchCount');
  });
});
