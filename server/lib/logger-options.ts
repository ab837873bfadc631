/**
 * The gateway's logger options (pino, through Fastify), built here so main.ts and the tests that
 * read the log use the same ones, with the one redaction of secrets every log line goes through.
 *
 * The redaction works on the finished line (pino's `streamWrite` hook), not on the fields of the
 * logged objects: secrets reach the log through libraries that log their own objects at any
 * depth (@fastify/multipart logs the request headers, X-Setup-Code included, at trace) and their
 * own text (@fastify/websocket logs the URL of an upgrade it has no handler for, query and all).
 * Browsers cannot set headers on a websocket, so /api/ws carries the access token in its query,
 * and devices on the HTTP API carry theirs in the path; both are found by their shape.
 */
import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../config.ts';
import { TB_AUTHORIZATION_HEADER } from '../contract/auth.ts';
import { SETUP_CODE_HEADER } from '../contract/license.ts';

export type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

const CENSOR = '***';

/** JSON fields whose value is a secret, at any depth: credentials in bodies, and headers. */
const secretFields = [
  'password', 'oldPassword', 'newPassword', 'token', 'accessToken', 'refreshToken', 'setupCode', 'platformSecret',
  'authorization', TB_AUTHORIZATION_HEADER, 'cookie', SETUP_CODE_HEADER,
];

/**
 * Secrets by their place or shape in the line. Character classes stop at `"` and `\`, so a
 * replacement inside a JSON string leaves the line valid JSON.
 */
const secretPatterns: readonly [RegExp, string][] = [
  [new RegExp(`("(?:${secretFields.join('|')})":)"(?:[^"\\\\]|\\\\.)*"`, 'gi'), `$1"${CENSOR}"`],
  // The device HTTP API (server/contract/device-api.ts): /api/v1/{accessToken}/…
  [/(\/api\/v1\/)[^/?#\s"\\]+/g, `$1${CENSOR}`],
  // Query parameters that carry a secret: the websocket's token, or one a client sent where none belongs.
  [/([?&](?:token|access_?token|refresh_?token|password|setup_?code|code)=)[^&#\s"\\]*/gi, `$1${CENSOR}`],
  [/(bearer\s+)[^\s"\\]+/gi, `$1${CENSOR}`],
  // The console's access tokens are JWTs (server/modules/auth/token.ts): caught wherever quoted.
  [/eyJ[\w-]*\.[\w-]+\.[\w-]+/g, CENSOR],
];

/** `line` with every secret of a known place or shape replaced. */
export function redactSecrets(line: string): string {
  let out = line;
  for (const [pattern, replacement] of secretPatterns) out = out.replace(pattern, replacement);
  return out;
}

export function loggerOptions(level: Exclude<LogLevel, 'silent'>): LoggerOptions {
  return {
    level,
    hooks: { streamWrite: redactSecrets },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: req.url, remoteAddress: req.ip }),
    },
  };
}
