/** Session calls (docs/API.md, Authentication): login, token rotation, logout. No /api/yt prefix. */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { OkSchema } from './common.ts';

export const LoginBodySchema = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 64 }),
    password: Type.String({ minLength: 1, maxLength: 128 }),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBodySchema>;

export const TokenPairSchema = Type.Object({
  token: Type.String(),
  refreshToken: Type.String(),
});
export type TokenPair = Static<typeof TokenPairSchema>;

export const RefreshBodySchema = Type.Object(
  { refreshToken: Type.String({ minLength: 1, maxLength: 512 }) },
  { additionalProperties: false },
);

/** Access token lifetime 9000 s and refresh token lifetime 7 days (docs/API.md, Authentication). */
export const ACCESS_TOKEN_TTL_S = 9000;
export const REFRESH_TOKEN_TTL_S = 7 * 24 * 3600;

export const authRoutes = defineRoutes({
  login: {
    method: 'POST',
    url: '/api/auth/login',
    schema: {
      tags: ['auth'],
      summary: 'Sign in with username and password',
      body: LoginBodySchema,
      response: { 200: TokenPairSchema, 401: ErrorBodySchema, 429: ErrorBodySchema },
    },
    config: { access: 'public' },
  },
  token: {
    method: 'POST',
    url: '/api/auth/token',
    schema: {
      tags: ['auth'],
      summary: 'Exchange a refresh token for a new pair (the old refresh token stops working)',
      body: RefreshBodySchema,
      response: { 200: TokenPairSchema, 401: ErrorBodySchema },
    },
    config: { access: 'public' },
  },
  logout: {
    method: 'POST',
    url: '/api/auth/logout',
    schema: {
      tags: ['auth'],
      summary: "Sign out: revokes the caller's refresh tokens and closes their websockets",
      response: { 200: OkSchema },
    },
    config: { access: 'user', permission: 'personal:center', licenseFree: true },
  },
});

/**
 * ThingsBoard's header for the same `Bearer <token>` (its UI and REST clients send it): accepted
 * wherever `Authorization: Bearer` is; when both come, `Authorization` is read.
 */
export const TB_AUTHORIZATION_HEADER = 'x-authorization';
