import { describe, expect, it } from 'vitest';
import { easedPercent, expectedImportMs } from '../../web/features/device/import/importProgress.ts';

describe('progress of a long import call', () => {
  it('starts at 0, grows with time and never claims more than 95 % before the answer', () => {
    const expected = expectedImportMs(10_000);
    const seen = [0, expected / 4, expected / 2, expected, expected * 10].map((t) => easedPercent(t, expected));
    expect(seen[0]).toBe(0);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThanOrEqual(seen[i - 1]!);
    expect(Math.max(...seen)).toBe(95);
  });

  it('expects a bigger file to take longer', () => {
    expect(expectedImportMs(10_000)).toBeGreaterThan(expectedImportMs(10));
  });
});
