import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deviceSecretCost, hashPassword, verifyPassword } from '../../server/lib/password.ts';

describe('password hashes', () => {
  it('stores scrypt with N = 2^15, r = 8, p = 1 and verifies only the right password', async () => {
    const stored = await hashPassword('Gateway#2026');
    expect(stored.split('$').slice(0, 4)).toEqual(['scrypt', '32768', '8', '1']);
    expect(await verifyPassword('Gateway#2026', stored)).toBe(true);
    expect(await verifyPassword('Gateway#2027', stored)).toBe(false);
  });

  it('still verifies a hash stored with the earlier 2^14 parameters', async () => {
    const salt = Buffer.from('0123456789abcdef');
    const hash = scryptSync('Gateway#2026', salt, 32, { N: 16384, r: 8, p: 1 });
    const stored = ['scrypt', 16384, 8, 1, salt.toString('base64'), hash.toString('base64')].join('$');
    expect(await verifyPassword('Gateway#2026', stored)).toBe(true);
    expect(await verifyPassword('gateway#2026', stored)).toBe(false);
  });
});

describe('device secret hashes', () => {
  it('hashes MQTT basic passwords at the cheap device cost, and verify them', async () => {
    const stored = await hashPassword('dev-secret', deviceSecretCost);
    expect(stored.split('$').slice(0, 4)).toEqual(['scrypt', '1024', '8', '1']);
    expect(await verifyPassword('dev-secret', stored)).toBe(true);
    expect(await verifyPassword('dev-secreT', stored)).toBe(false);
  });
});
