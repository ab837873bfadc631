import { describe, expect, it } from 'vitest';
import { timeLeftOf } from '../../web/features/system-config/time-left.ts';

describe('time left before the disk budget is reached', () => {
  it('reads in days from two days on, in hours from two hours on, else in minutes, and is unknown without a rate', () => {
    expect(timeLeftOf(null)).toBeNull();
    expect(timeLeftOf(3 * 86_400_000 + 5)).toEqual({ unit: 'day', count: 3 });
    expect(timeLeftOf(5 * 3_600_000)).toEqual({ unit: 'hour', count: 5 });
    expect(timeLeftOf(90 * 60_000)).toEqual({ unit: 'minute', count: 90 });
  });
});
