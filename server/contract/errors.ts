/**
 * Error codes of the API error body (ThingsBoard numbering, DESIGN.md section 4) and the i18n keys
 * of every error the server can produce. Texts live in web/i18n/locales/<lang>/errors.json, which
 * both the server (to fill `message`) and the console (to translate `key`) read.
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

/** Every error key the server emits; each has a text in errors.json of both languages. */
export const errorKeys = [
  'error.general',
  'error.internal',
  'error.notFound',
  'error.routeNotFound',
  'error.methodNotAllowed',
  'error.validation',
  'error.payloadTooLarge',
  'error.unsupportedMediaType',
  'error.tooManyRequests',
  'error.loginRateLimited',
  'error.auth.required',
  'error.auth.badCredentials',
  'error.auth.tokenExpired',
  'error.auth.tokenInvalid',
  'error.auth.refreshInvalid',
  'error.permissionDenied',
  'error.password.policy',
  'error.password.mismatch',
  'error.password.wrongCurrent',
  'error.password.sameAsOld',
  'error.user.realNameRequired',
  'error.user.phoneInvalid',
  'error.user.emailInvalid',
  'error.upload.fileRequired',
  'error.upload.tooLarge',
  'error.upload.badType',
  'error.license.required',
  'error.license.expired',
  'error.license.invalidFile',
  'error.license.badSignature',
  'error.license.untrustedKey',
  'error.license.wrongDevice',
  'error.license.notYetValid',
  'error.setup.codeRequired',
  'error.setup.codeInvalid',
  'error.setup.adminExists',
  'error.setup.licenseFirst',
  'error.cloud.addressInvalid',
  'error.proxy.upstreamUnavailable',
] as const;
export type ErrorKey = (typeof errorKeys)[number];

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
