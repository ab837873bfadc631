/**
 * Password hashing with scrypt (node:crypto, no native addon) and the password policy
 * (server/contract/validation.ts). Hash format: `scrypt$N$r$p$saltB64$hashB64`, so parameters
 * can be raised later without breaking stored hashes.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { PASSWORD_PATTERN } from '../contract/validation.ts';

export interface HashCost {
  N: number;
  r: number;
  p: number;
}

/**
 * Console users: N = 2^15, r = 8, 32 MiB per hash (sign-ins are rare and rate-limited; OWASP
 * asks for at least 2^17 at r = 8 on servers; a gateway CPU takes ~0.1-0.5 s here). The size
 * also matters for memory: glibc serves allocations up to its 32 MiB mmap ceiling from the calling thread's malloc arena once one such block was freed,
 * and never trims it, so at 2^14 (16 MiB) the libuv thread that hashed kept 16 MiB for good.
 * Above the ceiling each hash's block is mapped and unmapped (docs/PERFORMANCE-FINDINGS.md).
 * Hashes made with other parameters still verify: they are part of the stored string.
 */
export const userPasswordCost: HashCost = { N: 32768, r: 8, p: 1 };

/**
 * MQTT basic device passwords are checked on every device connect, in the single libuv thread
 * (server/main.ts): at the users' cost a fleet reconnecting after a restart would queue for
 * minutes. N = 2^10 (1 MiB, ~3 ms) is still far costlier to attack than the salted SHA-256 that
 * EMQX uses for its built-in MQTT authentication, or ThingsBoard's plain text.
 */
export const deviceSecretCost: HashCost = { N: 1024, r: 8, p: 1 };

const KEY_LEN = 32;

/** Node refuses scrypt above 32 MiB unless told; twice the block leaves room for its buffers. */
function maxmemOf(n: number, r: number, p: number): number {
  return 2 * 128 * r * (n + p);
}

function scrypt(password: string, salt: Buffer, keyLen: number, cost: HashCost): Promise<Buffer> {
  const opts: ScryptOptions = { ...cost, maxmem: maxmemOf(cost.N, cost.r, cost.p) };
  return new Promise((resolve, reject) => {
    scryptCb(password, salt, keyLen, opts, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string, cost: HashCost = userPasswordCost): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LEN, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
}

const policy = new RegExp(PASSWORD_PATTERN);

/** 8–30 characters with upper, lower, digit and special character. */
export function meetsPasswordPolicy(password: string): boolean {
  return policy.test(password);
}
