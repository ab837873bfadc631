/**
 * Error codes of the API error body (ThingsBoard numbering; docs/API.md, Errors) and the i18n keys
 * of every error the server can produce. Texts live in locales/<lang>/errors.json, which both the
 * server (to fill `message`) and the console (to translate `key`) read; the keys are typed from it.
 */
import Type, { type Static } from 'typebox';

export const ErrorCode = {
  GENERAL: 2,
  AUTHENTICATION: 10,
  TOKEN_EXPIRED: 11,
  PERMISSION_DENIED: 20,
  INVALID_ARGUMENTS: 30,
  BAD_REQUEST_PARAMS: 31,
  ITEM_NOT_FOUND: 32,
  TOO_MANY_REQUESTS: 33,
  VERSION_CONFLICT: 35,
  LIMIT_EXCEEDED: 41,
  PASSWORD_POLICY: 45,
  DATABASE: 46,
  /** Licence missing or expired: the console goes to the expired-licence upload page. */
  LICENSE: 99,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The dotted path of every text in a locale tree (`auth.badCredentials`). */
type TextPaths<T> = { [K in keyof T & string]: T[K] extends string ? K : `${K}.${TextPaths<T[K]>}` }[keyof T & string];

/**
 * Every error key: `error.` and the path of a text in errors.json (the file holds the part after
 * `error.`, server/lib/messages.ts), so a key without a text does not type-check. Type-only: the
 * contract loads no locale file at run time.
 */
export type ErrorKey = `error.${TextPaths<typeof import('../../locales/zh_CN/errors.json')>}`;

/** One entry of `details`: which field failed and why (an i18n key, and the raw validator text). */
export const ErrorDetailSchema = Type.Object({
  field: Type.String(),
  key: Type.Optional(Type.String()),
  message: Type.String(),
});

export const ErrorBodySchema = Type.Object(
  {
    code: Type.Integer(),
    key: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Array(ErrorDetailSchema)),
  },
  { $id: 'ErrorBody' },
);
export type ErrorBody = Static<typeof ErrorBodySchema>;
