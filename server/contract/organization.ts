/**
 * Organizations (System → Organization): a tree of name, integer sort and
 * superior organization. Every organization field of the console is a tree select fed by `tree`.
 *
 * Rules the server enforces (each refusal is 400 code 31 with the key named, `details[].field`
 * naming the field):
 * - name: NAME_PATTERN, 1–30 characters (`error.field.name`); unique among siblings
 *   (`error.organization.nameTaken`);
 * - sort: integer in int32 range (`error.field.sort`), default 0;
 * - parentId: an existing organization (`error.organization.parentNotFound`); moving under itself or
 *   one of its descendants is refused (`error.organization.parentCycle`);
 * - delete: refused while an organization still has children not deleted in the same call
 *   (`error.organization.hasChildren`) or holds devices (`error.organization.hasDevices`).
 * Unknown `id` on get/update: 404 code 32 `error.notFound`.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import {
  DeleteResultSchema,
  EpochMs,
  IdParamsSchema,
  IdsBodySchema,
  Nullable,
  PageOf,
  PageQuerySchema,
  SortQueryProperties,
  UpdateBodyOf,
} from './common.ts';
import { NAME_MAX, NAME_PATTERN, SORT_MAX, SORT_MIN } from './validation.ts';

const OrganizationProperties = {
  id: Type.String(),
  name: Type.String(),
  /** Siblings are ordered by sort, then name. */
  sort: Type.Integer(),
  /** Superior organization; null for a root. */
  parentId: Nullable(Type.String()),
  createdTime: EpochMs,
  updatedTime: EpochMs,
};

export const OrganizationSchema = Type.Object(OrganizationProperties);
export type Organization = Static<typeof OrganizationSchema>;

/** One node of `GET /api/yt/organization/tree`: the organization and its children, sorted. */
export const OrganizationTreeNodeSchema = Type.Cyclic(
  {
    OrganizationTreeNode: Type.Object({
      ...OrganizationProperties,
      children: Type.Array(Type.Ref('OrganizationTreeNode')),
    }),
  },
  'OrganizationTreeNode',
);
export type OrganizationTreeNode = Static<typeof OrganizationTreeNodeSchema>;

export const OrganizationNameSchema = Type.String({ minLength: 1, maxLength: NAME_MAX, pattern: NAME_PATTERN });
export const OrganizationSortSchema = Type.Integer({ minimum: SORT_MIN, maximum: SORT_MAX });

const organizationBodyProperties = {
  name: OrganizationNameSchema,
  /** int32; 0 when left out. */
  sort: Type.Optional(OrganizationSortSchema),
  /** Superior organization; left out or null makes a root. */
  parentId: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
};

/** Create body (no `id`). */
export const OrganizationBodySchema = Type.Object(organizationBodyProperties, { additionalProperties: false });
export type OrganizationBody = Static<typeof OrganizationBodySchema>;

/**
 * Update body: the whole organization with its `id` (PUT replaces: a left-out `sort` becomes 0, a
 * left-out `parentId` makes it a root). Changing `parentId` moves the organization with its subtree.
 */
export const OrganizationUpdateBodySchema = UpdateBodyOf(organizationBodyProperties);
export type OrganizationUpdateBody = Static<typeof OrganizationUpdateBodySchema>;

export const organizationSortFields = ['name', 'sort', 'createdTime'] as const;

/** Flat list with paging; default order: sort, then name. */
export const OrganizationListQuerySchema = Type.Object({
  ...PageQuerySchema.properties,
  /** Substring of the name. */
  name: Type.Optional(Type.String({ maxLength: NAME_MAX })),
  /** Direct children of this organization only. */
  parentId: Type.Optional(Type.String({ maxLength: 64 })),
  ...SortQueryProperties(organizationSortFields),
});
export type OrganizationListQuery = Static<typeof OrganizationListQuerySchema>;

export const OrganizationPageSchema = PageOf(OrganizationSchema);
export type OrganizationPage = Static<typeof OrganizationPageSchema>;

const tags = ['organization'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };

export const organizationRoutes = defineRoutes({
  tree: {
    method: 'GET',
    url: '/api/yt/organization/tree',
    schema: {
      tags,
      summary: 'The whole organization tree: root nodes with nested children, each level sorted by sort then name',
      response: { 200: Type.Array(OrganizationTreeNodeSchema), 401: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'organization:list' },
  },
  list: {
    method: 'GET',
    url: '/api/yt/organization',
    schema: {
      tags,
      summary: 'Organizations as a flat page (name search, direct children of parentId)',
      querystring: OrganizationListQuerySchema,
      response: { 200: OrganizationPageSchema, ...errors },
    },
    config: { access: 'user', permission: 'organization:list' },
  },
  get: {
    method: 'GET',
    url: '/api/yt/organization/:id',
    schema: {
      tags,
      summary: 'One organization',
      params: IdParamsSchema,
      response: { 200: OrganizationSchema, ...errors },
    },
    config: { access: 'user', permission: 'organization:view' },
  },
  create: {
    method: 'POST',
    url: '/api/yt/organization',
    schema: {
      tags,
      summary: 'Create an organization (name unique among its siblings)',
      body: OrganizationBodySchema,
      response: { 200: OrganizationSchema, ...errors },
    },
    config: { access: 'user', permission: 'organization:create' },
  },
  update: {
    method: 'PUT',
    url: '/api/yt/organization',
    schema: {
      tags,
      summary: 'Edit or move an organization (never under itself or a descendant)',
      body: OrganizationUpdateBodySchema,
      response: { 200: OrganizationSchema, ...errors },
    },
    config: { access: 'user', permission: 'organization:update' },
  },
  delete: {
    method: 'DELETE',
    url: '/api/yt/organization',
    schema: {
      tags,
      summary: 'Delete organizations; refused while one has children (outside the list) or devices',
      body: IdsBodySchema,
      response: { 200: DeleteResultSchema, ...errors },
    },
    config: { access: 'user', permission: 'organization:delete' },
  },
});
