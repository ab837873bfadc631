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

/** ThingsBoard's entity id object: `{ entityType, id }`. */
function entityId<T extends string>(entityType: T) {
  return Type.Object({ entityType: Type.Literal(entityType), id: Type.String() });
}

/** ThingsBoard's authorities; ours map onto them (PLATFORM_ADMIN is a tenant administrator there). */
export const tbAuthorities = ['SYS_ADMIN', 'TENANT_ADMIN', 'CUSTOMER_USER'] as const;
export type TbAuthority = (typeof tbAuthorities)[number];

/**
 * The signed-in user in ThingsBoard's `User` shape (its `GET /api/auth/user`), so ThingsBoard REST
 * clients work against the gateway and one gateway can stand in for the cloud of another.
 * `customerId` is ThingsBoard's null id (all zero bits of its time-based UUID) for a user of no customer.
 */
export const TbUserSchema = Type.Object({
  id: entityId('USER'),
  createdTime: Type.Number(),
  tenantId: entityId('TENANT'),
  customerId: entityId('CUSTOMER'),
  email: Type.String(),
  authority: Type.Enum(tbAuthorities),
  firstName: Type.Union([Type.String(), Type.Null()]),
  lastName: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  additionalInfo: Type.Object({}),
});
export type TbUser = Static<typeof TbUserSchema>;

/** ThingsBoard's NULL_UUID, the customer id of users that belong to no customer. */
export const TB_NULL_ID = '13814000-1dd2-11b2-8080-808080808080';

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
    config: { access: 'user', permission: 'personal:center', licenseFree: true, passwordChangeFree: true },
  },
  user: {
    method: 'GET',
    url: '/api/auth/user',
    schema: {
      tags: ['auth'],
      summary: "The signed-in user in ThingsBoard's User shape (authority, tenantId, customerId, email, names)",
      response: { 200: TbUserSchema },
    },
    config: { access: 'user', permission: 'personal:center', licenseFree: true, passwordChangeFree: true },
  },
});

/**
 * ThingsBoard's header for the same `Bearer <token>` (its UI and REST clients send it): accepted
 * wherever `Authorization: Bearer` is; when both come, `Authorization` is read.
 */
export const TB_AUTHORIZATION_HEADER = 'x-authorization';
