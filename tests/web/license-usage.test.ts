import { describe, expect, it } from 'vitest';
import { deviceUsage } from '../../web/features/license/deviceUsage.ts';

describe('deviceUsage', () => {
  it('reads maxDevices 0 as no limit, never full', () => {
    expect(deviceUsage(5000, 0)).toEqual({ used: 5000, max: null, full: false });
  });

  it('is full once the devices in use reach the limit', () => {
    expect(deviceUsage(1, 2)).toEqual({ used: 1, max: 2, full: false });
    expect(deviceUsage(2, 2)).toEqual({ used: 2, max: 2, full: true });
    // A licence for fewer devices than exist (installed later) leaves it full, not negative.
    expect(deviceUsage(7, 5)).toMatchObject({ full: true });
  });
});
