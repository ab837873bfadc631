/**
 * Operation management's content: banners on the login page and guide entries on the workbench's
 * quick entries. Both are the same kind of record (name, image, target URL, status, sort, remark),
 * so one schema and one route table builder serve both; `url` is a banner's link or a guide entry's
 * route in the console.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes, type RouteDef } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { DeleteResultSchema, EpochMs, IdsBodySchema, PageOf, PageQuerySchema, UpdateBodyOf } from './common.ts';
import { ImageRefSchema, IMAGE_REF_MAX } from './image-ref.ts';
import { DESCRIPTION_MAX, NAME_MAX, NAME_PATTERN, SORT_MAX, SORT_MIN } from './validation.ts';

export const operationKinds = ['banner', 'guide'] as const;
export type OperationKind = (typeof operationKinds)[number];

/** 1 shown, 0 hidden (the spec's status). */
export const OperationStatusSchema = Type.Integer({ minimum: 0, maximum: 1 });

export const OPERATION_URL_MAX = 512;
/** A banner links to a web page or a console path; a guide entry opens a console path. */
export const BANNER_LINK_PATTERN = '^(https?://[^\\s]+|/[^\\s]*)?$';
export const GUIDE_ROUTE_PATTERN = '^/[^\\s]*$';

export const OperationEntrySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  image: Type.String(),
  url: Type.String(),
  status: OperationStatusSchema,
  sort: Type.Integer(),
  remark: Type.String(),
  createTime: EpochMs,
});
export type OperationEntry = Static<typeof OperationEntrySchema>;

/** What a login page or workbench shows of an entry: only enabled ones, by sort. */
export const ShownEntrySchema = Type.Pick(OperationEntrySchema, ['id', 'name', 'image', 'url']);
export type ShownEntry = Static<typeof ShownEntrySchema>;

function bodyProperties(urlPattern: string) {
  return {
    name: Type.String({ minLength: 1, maxLength: NAME_MAX, pattern: NAME_PATTERN }),
    image: ImageRefSchema,
    url: Type.String({ maxLength: OPERATION_URL_MAX, pattern: urlPattern }),
    status: OperationStatusSchema,
    sort: Type.Integer({ minimum: SORT_MIN, maximum: SORT_MAX }),
    remark: Type.String({ maxLength: DESCRIPTION_MAX, default: '' }),
  };
}

const patterns: Record<OperationKind, string> = { banner: BANNER_LINK_PATTERN, guide: GUIDE_ROUTE_PATTERN };

export function operationBodySchemas(kind: OperationKind) {
  const properties = bodyProperties(patterns[kind]);
  return { create: Type.Object(properties, { additionalProperties: false }), update: UpdateBodyOf(properties) };
}
const bannerBodies = operationBodySchemas('banner');
const guideBodies = operationBodySchemas('guide');
export type OperationCreateBody = Static<typeof bannerBodies.create>;
export type OperationUpdateBody = Static<typeof bannerBodies.update>;

export const OperationPageSchema = PageOf(OperationEntrySchema);
export type OperationPage = Static<typeof OperationPageSchema>;

/** A body holds one data-URI image at most, besides short text. */
export const OPERATION_BODY_LIMIT = IMAGE_REF_MAX + 64 * 1024;

const manage = { access: 'user', permission: 'platform:info:update' } as const;
const errors = { 400: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 413: ErrorBodySchema };

/** The four managing calls of one kind. */
function kindRoutes(kind: OperationKind, bodies: ReturnType<typeof operationBodySchemas>) {
  const url = `/api/yt/platform/${kind}`;
  const tags = ['operation'];
  return {
    list: { method: 'GET' as const, url, schema: { tags, summary: `Page of ${kind} entries, by sort`, querystring: PageQuerySchema, response: { 200: OperationPageSchema } }, config: manage },
    create: { method: 'POST' as const, url, schema: { tags, summary: `Create a ${kind} entry`, body: bodies.create, response: { 200: OperationEntrySchema, ...errors } }, config: manage },
    update: { method: 'PUT' as const, url, schema: { tags, summary: `Replace a ${kind} entry`, body: bodies.update, response: { 200: OperationEntrySchema, ...errors } }, config: manage },
    remove: { method: 'DELETE' as const, url, schema: { tags, summary: `Delete ${kind} entries`, body: IdsBodySchema, response: { 200: DeleteResultSchema, ...errors } }, config: manage },
  } satisfies Record<string, RouteDef>;
}

const shownSchema = (kind: OperationKind) => ({ tags: ['operation'], summary: `Enabled ${kind} entries by sort`, response: { 200: Type.Array(ShownEntrySchema) } });

export const bannerRoutes = defineRoutes({
  ...kindRoutes('banner', bannerBodies),
  /** Public: the login page shows banners before anyone signs in. */
  shown: { method: 'GET', url: '/api/yt/platform/banner/shown', schema: shownSchema('banner'), config: { access: 'public' } },
});
export const guideRoutes = defineRoutes({
  ...kindRoutes('guide', guideBodies),
  /** Every signed-in user: the workbench shows them as quick entries. */
  shown: { method: 'GET', url: '/api/yt/platform/guide/shown', schema: shownSchema('guide'), config: { access: 'user', permission: 'dashboard:view' } },
});
