/**
 * A minimal JWT (HS256 only) with node:crypto: the session module needs nothing more, and a
 * dependency would bring algorithm negotiation we must then lock down. Only tokens whose header
 * says exactly HS256 are accepted, so `alg: none` or key-confusion tricks cannot apply.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { roles, type Role } from '../../contract/user.ts';

/** What an access token carries. `tv` is the user's token_version when it was issued. */
export interface AccessClaims {
  sub: string;
  username: string;
  role: Role;
  tv: number;
  /**
   * The sign-in (refresh-token family) the token was issued to, so revoking that family ends it
   * too. Tokens issued before families existed lack it and answer to `tv` alone until they expire.
   */
  fam?: string;
  /** Seconds since the epoch. */
  iat: number;
  exp: number;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function sign(key: Buffer, input: string): Buffer {
  return createHmac('sha256', key).update(input).digest();
}

export function signAccessToken(key: Buffer, claims: AccessClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const input = `${HEADER}.${payload}`;
  return `${input}.${sign(key, input).toString('base64url')}`;
}

function isClaims(value: unknown): value is AccessClaims {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  return (
    typeof c.sub === 'string' &&
    typeof c.username === 'string' &&
    typeof c.role === 'string' &&
    (roles as readonly string[]).includes(c.role) &&
    Number.isInteger(c.tv) &&
    (c.fam === undefined || typeof c.fam === 'string') &&
    Number.isInteger(c.iat) &&
    Number.isInteger(c.exp)
  );
}

/**
 * Checks signature, header and claim shapes, then expiry (only once the signature holds, so a
 * forged token never learns more than "invalid"). Returns null for anything malformed.
 */
export function verifyAccessTokenSignature(
  key: Buffer,
  token: string,
  nowS: number = Math.floor(Date.now() / 1000),
): AccessClaims | 'expired' | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  if (header !== HEADER) return null;
  // Compare the encoded text, not decoded bytes: base64url decoding ignores stray characters and
  // spare low bits, which would let several spellings of one signature pass.
  const given = Buffer.from(signature);
  const expected = Buffer.from(sign(key, `${header}.${payload}`).toString('base64url'));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!isClaims(claims)) return null;
  return claims.exp <= nowS ? 'expired' : claims;
}
