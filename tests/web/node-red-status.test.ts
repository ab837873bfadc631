import { describe, expect, it } from 'vitest';
import { portRangeProblem } from '../../server/contract/port-range.ts';
import { memoryText } from '../../web/features/node-red/instanceStatus.ts';

describe('soft gateway display rules', () => {
  it('shows memory in whole MB, and a dash while the instance does not run', () => {
    expect(memoryText(undefined)).toBe('—');
    expect(memoryText(160 * 1048576 + 300_000)).toBe('160 MB');
  });

  it('refuses a port range whose first port is not below the second', () => {
    expect(portRangeProblem({ start: 30000, end: 30999 })).toBeNull();
    expect(portRangeProblem({ start: 30000, end: 30000 })).toBe('error.portRange.order');
    expect(portRangeProblem({ start: 31000, end: 30000 })).toBe('error.portRange.order');
  });
});
