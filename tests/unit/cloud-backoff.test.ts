import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../server/modules/cloud-link/cloud-connection.ts';

const LIMITS = { minMs: 1000, maxMs: 60_000 };

describe('cloud link reconnect backoff', () => {
  it('waits between half and all of 1 s after the first failure, doubling after each', () => {
    expect(backoffDelay(0, LIMITS, () => 0)).toBe(500);
    expect(backoffDelay(0, LIMITS, () => 1)).toBe(1000);
    expect(backoffDelay(1, LIMITS, () => 1)).toBe(2000);
    expect(backoffDelay(5, LIMITS, () => 1)).toBe(32_000);
  });

  it('never waits more than 60 s, however many failures came before', () => {
    for (const failures of [6, 10, 100, 10_000]) {
      expect(backoffDelay(failures, LIMITS, () => 1)).toBe(60_000);
      expect(backoffDelay(failures, LIMITS, () => 0)).toBe(30_000);
    }
  });
});
