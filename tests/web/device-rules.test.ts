import { describe, expect, it } from 'vitest';
import {
  addressCodeProblem,
  batchCountProblem,
  aliasProblem,
  locationBody,
  locationProblems,
  mapPoint,
  nameProblem,
  normalizeAddressCode,
  parseCoordinate,
} from '../../web/features/device/deviceRules.ts';

describe('device form rules', () => {
  it('accepts a name of Chinese characters, letters, digits and _ - @ ( )', () => {
    expect(nameProblem('温度传感器_A-1@(x)')).toBeNull();
  });

  it('refuses an empty name, a space and a 31-character name', () => {
    expect(nameProblem('  ')).toBe('field.required');
    expect(nameProblem('a b')).toBe('field.name');
    expect(nameProblem('a'.repeat(31))).toBe('field.name');
    expect(nameProblem('a'.repeat(30))).toBeNull();
  });

  it('refuses an alias of 37 characters', () => {
    expect(aliasProblem('a'.repeat(36))).toBeNull();
    expect(aliasProblem('a'.repeat(37))).toBe('field.alias');
  });

  it('accepts address codes 00 to FF in either case and stores them upper case', () => {
    expect(addressCodeProblem('')).toBeNull();
    expect(addressCodeProblem('0a')).toBeNull();
    expect(addressCodeProblem('FF')).toBeNull();
    expect(addressCodeProblem('100')).toBe('field.addressCode');
    expect(addressCodeProblem('G1')).toBe('field.addressCode');
    expect(normalizeAddressCode(' 0a ')).toBe('0A');
    expect(normalizeAddressCode('')).toBeNull();
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
    expect(locationProblems({ longitude: '180', latitude: '-90' })).toEqual({});
    expect(locationProblems({ longitude: '180.01', latitude: '90.5' })).toEqual({ longitude: 'field.longitude', latitude: 'field.latitude' });
  });

  it('asks for both coordinates or neither, on the missing one', () => {
    expect(locationProblems({ longitude: '', latitude: '' })).toEqual({});
    expect(locationProblems({ longitude: '', latitude: '30' })).toEqual({ longitude: 'field.locationIncomplete' });
    expect(locationProblems({ longitude: '120', latitude: null })).toEqual({ latitude: 'field.locationIncomplete' });
  });

  it('refuses an address of 256 characters', () => {
    expect(locationProblems({ longitude: '', latitude: '', address: 'x'.repeat(256) })).toEqual({ address: 'field.address' });
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
    expect(batchCountProblem(0)).toBe('field.batchCount');
    expect(batchCountProblem(1001)).toBe('field.batchCount');
    expect(batchCountProblem(2.5)).toBe('field.batchCount');
    expect(batchCountProblem('5')).toBe('field.batchCount');
    expect(batchCountProblem(undefined)).toBe('field.batchCount');
  });
});
