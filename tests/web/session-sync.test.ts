import { describe, expect, it } from 'vitest';
import { adoptedPair } from '../../web/lib/session-sync.ts';

describe('tabs sharing a sign-in', () => {
  const pair = { token: 'access-2', refreshToken: 'refresh-2' };

  it('adopts the pair another tab rotated its own refresh token into', () => {
    expect(adoptedPair('refresh-1', { previous: 'refresh-1', pair })).toEqual(pair);
  });

  it("ignores another sign-in's rotation, and a tab that is signed out", () => {
    expect(adoptedPair('refresh-9', { previous: 'refresh-1', pair })).toBeNull();
    expect(adoptedPair(null, { previous: 'refresh-1', pair })).toBeNull();
  });
});
