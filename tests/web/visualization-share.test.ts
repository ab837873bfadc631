import { describe, expect, it } from 'vitest';
import { mergeShared } from '../../web/features/visualization/shareSocket.ts';

describe('a share page’s live values', () => {
  it('takes each arriving value of a bound pair, keeps a newer one over an older late arrival, and keeps the same object when nothing is new', () => {
    const first = mergeShared({}, { d1: { temperature: { ts: 10, value: 21 } } });
    const next = mergeShared(first, { d1: { temperature: { ts: 20, value: 22 }, humidity: { ts: 20, value: 40 } }, d2: { level: { ts: 5, value: 1 } } });
    expect(next).toEqual({ d1: { temperature: { ts: 20, value: 22 }, humidity: { ts: 20, value: 40 } }, d2: { level: { ts: 5, value: 1 } } });
    expect(mergeShared(next, { d1: { temperature: { ts: 15, value: 0 } } })).toBe(next);
  });
});
