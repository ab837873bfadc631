/**
 * Product categories (console page /device-manage/category): name, domain, status, type.
 * The product create drawer selects one from `options`.
 *
 * Choices made here:
 * - `domain` (industry domain) is free text of at most 30 characters, optional: domains differ per
 *   deployment and a fixed list would need translating for every customer.
 * - `status` is 1 (enabled) or 0 (disabled); a new product cannot pick a disabled category, a
 *   product that already has it keeps it.
 * - `type` STANDARD (shipped/templated) or CUSTOM (made by the user, the default).
 *
 * Refusals (400 code 31): name rule `error.field.name`, name taken `error.category.nameTaken`,
 * deleting a category products still use `error.category.inUse`. Unknown id: 404 `error.notFound`.
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
import { DESCRIPTION_MAX, NAME_MAX, NAME_PATTERN } from './validation.ts';

export const categoryTypes = ['STANDARD', 'CUSTOM'] as const;
export const CategoryTypeSchema = Type.Enum(categoryTypes);
export type CategoryType = (typeof categoryTypes)[number];

/** Category status values: 1 enabled, 0 disabled. */
export const CategoryStatus = { ENABLED: 1, DISABLED: 0 } as const;
export type CategoryStatus = (typeof CategoryStatus)[keyof typeof CategoryStatus];
// An integer range rather than an enum of numbers: query strings are coerced only for typed schemas.
export const CategoryStatusSchema = Type.Integer({ minimum: 0, maximum: 1 });

/** Industry domain: free text, at most 30 characters. */
export const CATEGORY_DOMAIN_MAX = 30;

export const CategorySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  domain: Nullable(Type.String()),
  status: CategoryStatusSchema,
  type: CategoryTypeSchema,
  description: Nullable(Type.String()),
  /** Products in this category. */
  productCount: Type.Integer({ minimum: 0 }),
  createdTime: EpochMs,
  updatedTime: EpochMs,
});
export type Category = Static<typeof CategorySchema>;

const categoryBodyProperties = {
  name: Type.String({ minLength: 1, maxLength: NAME_MAX, pattern: NAME_PATTERN }),
  domain: Type.Optional(Nullable(Type.String({ maxLength: CATEGORY_DOMAIN_MAX }))),
  /** 1 enabled (default), 0 disabled. */
  status: Type.Optional(CategoryStatusSchema),
  /** CUSTOM when left out. */
  type: Type.Optional(CategoryTypeSchema),
  description: Type.Optional(Nullable(Type.String({ maxLength: DESCRIPTION_MAX }))),
};

export const CategoryBodySchema = Type.Object(categoryBodyProperties, { additionalProperties: false });
export type CategoryBody = Static<typeof CategoryBodySchema>;

/** Update: the whole category with its id (left-out optional fields take their defaults). */
export const CategoryUpdateBodySchema = UpdateBodyOf(categoryBodyProperties);
export type CategoryUpdateBody = Static<typeof CategoryUpdateBodySchema>;

export const categorySortFields = ['name', 'status', 'type', 'createdTime'] as const;

/** Default order: newest first. */
export const CategoryListQuerySchema = Type.Object({
  ...PageQuerySchema.properties,
  /** Substring of the name. */
  name: Type.Optional(Type.String({ maxLength: NAME_MAX })),
  status: Type.Optional(CategoryStatusSchema),
  type: Type.Optional(CategoryTypeSchema),
  ...SortQueryProperties(categorySortFields),
});
export type CategoryListQuery = Static<typeof CategoryListQuerySchema>;

export const CategoryPageSchema = PageOf(CategorySchema);
export type CategoryPage = Static<typeof CategoryPageSchema>;

/** An entry of the product drawer's category select. */
export const CategoryOptionSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: CategoryStatusSchema,
});
export type CategoryOption = Static<typeof CategoryOptionSchema>;

const tags = ['product-category'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };

export const categoryRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/product_category',
    schema: {
      tags,
      summary: 'Product categories, paged (name search, status and type filters)',
      querystring: CategoryListQuerySchema,
      response: { 200: CategoryPageSchema, ...errors },
    },
    config: { access: 'user', permission: 'product_category:list' },
  },
  options: {
    method: 'GET',
    url: '/api/yt/product_category/me/list',
    schema: {
      tags,
      summary: 'Every category (id, name, status) by name, for selects',
      response: { 200: Type.Array(CategoryOptionSchema), 401: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'product_category:list' },
  },
  get: {
    method: 'GET',
    url: '/api/yt/product_category/:id',
    schema: { tags, summary: 'One category', params: IdParamsSchema, response: { 200: CategorySchema, ...errors } },
    config: { access: 'user', permission: 'product_category:view' },
  },
  create: {
    method: 'POST',
    url: '/api/yt/product_category',
    schema: {
      tags,
      summary: 'Create a category (unique name)',
      body: CategoryBodySchema,
      response: { 200: CategorySchema, ...errors },
    },
    config: { access: 'user', permission: 'product_category:create' },
  },
  update: {
    method: 'PUT',
    url: '/api/yt/product_category',
    schema: {
      tags,
      summary: 'Edit a category',
      body: CategoryUpdateBodySchema,
      response: { 200: CategorySchema, ...errors },
    },
    config: { access: 'user', permission: 'product_category:update' },
  },
  delete: {
    method: 'DELETE',
    url: '/api/yt/product_category',
    schema: {
      tags,
      summary: 'Delete categories; refused while a product uses one',
      body: IdsBodySchema,
      response: { 200: DeleteResultSchema, ...errors },
    },
    config: { access: 'user', permission: 'product_category:delete' },
  },
});
