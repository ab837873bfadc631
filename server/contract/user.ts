/** The signed-in user's own account: info, profile edit, password change, avatar upload. */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { EpochMs, OkSchema } from './common.ts';
import {
  EMAIL_MAX,
  EMAIL_PATTERN,
  PASSWORD_MAX,
  PHONE_PATTERN,
  REAL_NAME_MAX,
  VISIBLE_TEXT_PATTERN,
} from './validation.ts';

export const roles = ['SYS_ADMIN', 'PLATFORM_ADMIN', 'TENANT_ADMIN', 'CUSTOMER_USER'] as const;
// Type.Enum keeps the literal union in Static<>; a Union over a mapped array infers never.
export const RoleSchema = Type.Enum(roles);
export type Role = (typeof roles)[number];

export const UserInfoSchema = Type.Object({
  userId: Type.String(),
  username: Type.String(),
  realName: Type.String(),
  phoneNumber: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  avatar: Type.Union([Type.String(), Type.Null()]),
  role: RoleSchema,
  createTime: EpochMs,
});
export type UserInfo = Static<typeof UserInfoSchema>;

/** Profile edit: realName required ≤ 32, phone mainland, email optional ≤ 32. */
export const ProfileBodySchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    realName: Type.String({ minLength: 1, maxLength: REAL_NAME_MAX, pattern: VISIBLE_TEXT_PATTERN }),
    phoneNumber: Type.Optional(
      Type.Union([Type.String({ pattern: PHONE_PATTERN }), Type.Literal(''), Type.Null()]),
    ),
    email: Type.Optional(
      Type.Union([
        Type.String({ maxLength: EMAIL_MAX, pattern: EMAIL_PATTERN }),
        Type.Literal(''),
        Type.Null(),
      ]),
    ),
    avatar: Type.Optional(Type.Union([Type.String({ maxLength: 512 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type ProfileBody = Static<typeof ProfileBodySchema>;

/**
 * Password change (`POST /api/yt/user/reset`): `password` is the current password,
 * `resetPassword` the new one. The policy is checked by the service so that a weak password gets
 * code 45 (password policy) rather than a generic validation error.
 */
export const ResetPasswordBodySchema = Type.Object(
  {
    userId: Type.String({ minLength: 1 }),
    password: Type.String({ maxLength: 128 }),
    resetPassword: Type.String({ maxLength: PASSWORD_MAX + 98 }),
  },
  { additionalProperties: false },
);
export type ResetPasswordBody = Static<typeof ResetPasswordBodySchema>;

export const userRoutes = defineRoutes({
  me: {
    method: 'GET',
    url: '/api/yt/user/me/info',
    schema: { tags: ['user'], summary: "The signed-in user's info", response: { 200: UserInfoSchema } },
    config: { access: 'user', permission: 'personal:center', licenseFree: true, passwordChangeFree: true },
  },
  updateProfile: {
    method: 'PUT',
    url: '/api/yt/user/center',
    schema: {
      tags: ['user'],
      summary: 'Edit own profile (realName, phone, email, avatar)',
      body: ProfileBodySchema,
      response: { 200: UserInfoSchema, 400: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'personal:center' },
  },
  resetPassword: {
    method: 'POST',
    url: '/api/yt/user/reset',
    schema: {
      tags: ['user'],
      summary: 'Change own password; revokes every session of the user',
      body: ResetPasswordBodySchema,
      response: { 200: OkSchema, 400: ErrorBodySchema, 429: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'personal:center', passwordChangeFree: true },
  },
  /**
   * The spec's password change by multipart form: the fields of `resetPassword` as form fields,
   * with the same rules and effects (every session of the user ends).
   */
  changePasswordByForm: {
    method: 'POST',
    url: '/api/yt/user/changePasswordByAc',
    schema: {
      tags: ['user'],
      summary: 'Change own password from a multipart form (userId, password, resetPassword); revokes every session of the user',
      consumes: ['multipart/form-data'],
      body: ResetPasswordBodySchema,
      response: { 200: OkSchema, 400: ErrorBodySchema, 429: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'personal:center', passwordChangeFree: true },
  },
});
