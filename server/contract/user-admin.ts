/**
 * Accounts as an administrator manages them (System → User), and the signed-in user's permissions.
 *
 * Rules the server enforces:
 * - username: USERNAME_PATTERN, unique ignoring case (400 code 30 `error.userAdmin.usernameTaken`);
 * - password (create, admin reset): the password policy (400 code 45 `error.password.policy`); an
 *   admin reset makes the user change it at the next sign-in (`mustChangePassword`);
 * - organizationIds: existing organizations (400 code 30 `error.userAdmin.organizationNotFound`);
 * - at least one enabled SYS_ADMIN remains after any edit or delete (409 code 35 `error.userAdmin.lastAdmin`);
 * - disabling, deleting or changing the role of a user ends their sessions and websockets at once.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { DeleteResultSchema, EpochMs, IdsBodySchema, OkSchema, PageOf, PageQuerySchema, ResourceIdSchema } from './common.ts';
import { RoleSchema } from './user.ts';
import { PASSWORD_MAX, REAL_NAME_MAX, USERNAME_PATTERN, VISIBLE_TEXT_PATTERN } from './validation.ts';

export const ManagedUserSchema = Type.Object({
  id: Type.String(),
  username: Type.String(),
  realName: Type.String(),
  role: RoleSchema,
  organizationIds: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  mustChangePassword: Type.Boolean(),
  createTime: EpochMs,
});
export type ManagedUser = Static<typeof ManagedUserSchema>;

export const UserListQuerySchema = Type.Object({
  ...PageQuerySchema.properties,
  /** Substring of the username. */
  username: Type.Optional(Type.String({ maxLength: 32 })),
  role: Type.Optional(RoleSchema),
});
export type UserListQuery = Static<typeof UserListQuerySchema>;

const userBodyProperties = {
  username: Type.String({ pattern: USERNAME_PATTERN }),
  realName: Type.String({ minLength: 1, maxLength: REAL_NAME_MAX, pattern: VISIBLE_TEXT_PATTERN }),
  role: RoleSchema,
  organizationIds: Type.Array(ResourceIdSchema, { maxItems: 100 }),
  enabled: Type.Boolean(),
};

/** Create: the password is the one the user signs in with (no change forced). */
export const UserCreateBodySchema = Type.Object(
  { ...userBodyProperties, password: Type.String({ maxLength: PASSWORD_MAX + 98 }) },
  { additionalProperties: false },
);
export type UserCreateBody = Static<typeof UserCreateBodySchema>;

/** Update: the whole account with its `id`; a `password` given here is an admin reset. */
export const UserUpdateBodySchema = Type.Object(
  { id: ResourceIdSchema, ...userBodyProperties, password: Type.Optional(Type.String({ maxLength: PASSWORD_MAX + 98 })) },
  { additionalProperties: false },
);
export type UserUpdateBody = Static<typeof UserUpdateBodySchema>;

export const AdminResetPasswordBodySchema = Type.Object(
  { id: ResourceIdSchema, password: Type.String({ maxLength: PASSWORD_MAX + 98 }) },
  { additionalProperties: false },
);
export type AdminResetPasswordBody = Static<typeof AdminResetPasswordBodySchema>;

/** What the console keeps of the signed-in user's rights (local storage, spec section 6). */
export const MyPermissionsSchema = Type.Object({
  role: RoleSchema,
  permissions: Type.Array(Type.String()),
  /** Set by an administrator's reset: the console sends the user to change the password. */
  mustChangePassword: Type.Boolean(),
});
export type MyPermissions = Static<typeof MyPermissionsSchema>;

const tags = ['user-admin'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };

export const userAdminRoutes = defineRoutes({
  myPermissions: {
    method: 'GET',
    url: '/api/yt/user/me/permissions',
    schema: { tags, summary: "The signed-in user's role and permission strings", response: { 200: MyPermissionsSchema } },
    config: { access: 'user', permission: 'personal:center', licenseFree: true, passwordChangeFree: true },
  },
  list: {
    method: 'GET',
    url: '/api/yt/user',
    schema: { tags, summary: 'Accounts, newest first', querystring: UserListQuerySchema, response: { 200: PageOf(ManagedUserSchema), ...errors } },
    config: { access: 'user', permission: 'user:list' },
  },
  create: {
    method: 'POST',
    url: '/api/yt/user',
    schema: { tags, summary: 'Create an account that signs in with the given password', body: UserCreateBodySchema, response: { 200: ManagedUserSchema, ...errors } },
    config: { access: 'user', permission: 'user:create' },
  },
  update: {
    method: 'PUT',
    url: '/api/yt/user',
    schema: {
      tags,
      summary: 'Edit an account; disabling it or changing its role ends its sessions',
      body: UserUpdateBodySchema,
      response: { 200: ManagedUserSchema, ...errors },
    },
    config: { access: 'user', permission: 'user:update' },
  },
  delete: {
    method: 'DELETE',
    url: '/api/yt/user',
    schema: { tags, summary: 'Delete accounts; their sessions end at once', body: IdsBodySchema, response: { 200: DeleteResultSchema, ...errors } },
    config: { access: 'user', permission: 'user:delete' },
  },
  resetPassword: {
    method: 'POST',
    url: '/api/yt/user/admin/reset',
    schema: {
      tags,
      summary: "Set another account's password; the user must change it at the next sign-in",
      body: AdminResetPasswordBodySchema,
      response: { 200: OkSchema, ...errors },
    },
    config: { access: 'user', permission: 'user:reset_password' },
  },
});
