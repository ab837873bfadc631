/**
 * Notices (System → Notice) and each user's own notices ("my notices").
 *
 * A notice is a MEETING or a NOTICE with a title and rich text content, a DRAFT until published,
 * and receivers: ALL users, an ORGANIZATION (that node's members), a DEPARTMENT (the node and every
 * node below it) or INDIVIDUAL users by id. Publishing fixes the receiver list: each receiver gets a
 * read state of their own.
 *
 * Rules the server enforces (400 code 31 unless said otherwise):
 * - title: 1–100 visible characters (`error.notice.title`);
 * - content: at most NOTICE_CONTENT_MAX characters of HTML (`error.notice.content`), stored
 *   sanitized (an allow-list of formatting tags; scripts, event handlers and javascript: links go);
 * - receiverIds: at least one for ORGANIZATION, DEPARTMENT and INDIVIDUAL (`error.notice.receiversRequired`);
 * - a published notice is no longer edited or published again (409 code 35 `error.notice.published`).
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { DeleteResultSchema, EpochMs, IdParamsSchema, IdsBodySchema, Nullable, OkSchema, PageOf, PageQuerySchema, ResourceIdSchema, UpdateBodyOf } from './common.ts';
import { VISIBLE_TEXT_PATTERN } from './validation.ts';

export const noticeTypes = ['MEETING', 'NOTICE'] as const;
export const NoticeTypeSchema = Type.Enum(noticeTypes);
export type NoticeType = (typeof noticeTypes)[number];

export const noticeStatuses = ['DRAFT', 'PUBLISHED'] as const;
export const NoticeStatusSchema = Type.Enum(noticeStatuses);
export type NoticeStatus = (typeof noticeStatuses)[number];

export const noticeReceiverTypes = ['ALL', 'ORGANIZATION', 'DEPARTMENT', 'INDIVIDUAL'] as const;
export const NoticeReceiverTypeSchema = Type.Enum(noticeReceiverTypes);
export type NoticeReceiverType = (typeof noticeReceiverTypes)[number];

export const NOTICE_TITLE_MAX = 100;
/** Rich text as HTML; generous for formatted text, small enough that a list page stays light. */
export const NOTICE_CONTENT_MAX = 20_000;
export const NOTICE_RECEIVERS_MAX = 500;

const NoticeProperties = {
  id: Type.String(),
  type: NoticeTypeSchema,
  title: Type.String(),
  /** Sanitized HTML. */
  content: Type.String(),
  status: NoticeStatusSchema,
  receiverType: NoticeReceiverTypeSchema,
  /** Organization ids (ORGANIZATION, DEPARTMENT) or user ids (INDIVIDUAL); empty for ALL. */
  receiverIds: Type.Array(Type.String()),
  createdBy: Nullable(Type.String()),
  createdTime: EpochMs,
  updatedTime: EpochMs,
  publishedTime: Nullable(EpochMs),
};

export const NoticeSchema = Type.Object(NoticeProperties);
export type Notice = Static<typeof NoticeSchema>;

const noticeBodyProperties = {
  type: NoticeTypeSchema,
  title: Type.String({ minLength: 1, maxLength: NOTICE_TITLE_MAX, pattern: VISIBLE_TEXT_PATTERN }),
  content: Type.String({ maxLength: NOTICE_CONTENT_MAX }),
  receiverType: NoticeReceiverTypeSchema,
  receiverIds: Type.Optional(Type.Array(ResourceIdSchema, { maxItems: NOTICE_RECEIVERS_MAX })),
};

export const NoticeBodySchema = Type.Object(noticeBodyProperties, { additionalProperties: false });
export type NoticeBody = Static<typeof NoticeBodySchema>;
export const NoticeUpdateBodySchema = UpdateBodyOf(noticeBodyProperties);
export type NoticeUpdateBody = Static<typeof NoticeUpdateBodySchema>;

export const NoticeListQuerySchema = Type.Object({
  ...PageQuerySchema.properties,
  type: Type.Optional(NoticeTypeSchema),
  status: Type.Optional(NoticeStatusSchema),
});
export type NoticeListQuery = Static<typeof NoticeListQuerySchema>;

/** A notice as one receiver sees it: with their own read state. */
export const MyNoticeSchema = Type.Object({
  ...NoticeProperties,
  read: Type.Boolean(),
  readTime: Nullable(EpochMs),
});
export type MyNotice = Static<typeof MyNoticeSchema>;

export const MyNoticeQuerySchema = Type.Object({
  ...PageQuerySchema.properties,
  unreadOnly: Type.Optional(Type.Boolean()),
});
export type MyNoticeQuery = Static<typeof MyNoticeQuerySchema>;

export const NoticePageSchema = PageOf(NoticeSchema);
export const MyNoticePageSchema = Type.Object({
  items: Type.Array(MyNoticeSchema),
  total: Type.Integer({ minimum: 0 }),
  /** Unread notices of the caller, whatever the filter. */
  unread: Type.Integer({ minimum: 0 }),
});
export type MyNoticePage = Static<typeof MyNoticePageSchema>;

const tags = ['notice'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };

export const noticeRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/notice',
    schema: { tags, summary: 'Notices as a page (type, status)', querystring: NoticeListQuerySchema, response: { 200: NoticePageSchema, ...errors } },
    config: { access: 'user', permission: 'notice:list' },
  },
  create: {
    method: 'POST',
    url: '/api/yt/notice',
    schema: { tags, summary: 'Create a notice (a draft)', body: NoticeBodySchema, response: { 200: NoticeSchema, ...errors } },
    config: { access: 'user', permission: 'notice:create' },
  },
  update: {
    method: 'PUT',
    url: '/api/yt/notice',
    schema: { tags, summary: 'Edit a draft notice', body: NoticeUpdateBodySchema, response: { 200: NoticeSchema, 409: ErrorBodySchema, ...errors } },
    config: { access: 'user', permission: 'notice:update' },
  },
  delete: {
    method: 'DELETE',
    url: '/api/yt/notice',
    schema: { tags, summary: 'Delete notices (with their read states)', body: IdsBodySchema, response: { 200: DeleteResultSchema, ...errors } },
    config: { access: 'user', permission: 'notice:delete' },
  },
  publish: {
    method: 'POST',
    url: '/api/yt/notice/:id/publish',
    schema: { tags, summary: 'Publish a draft notice to its receivers', params: IdParamsSchema, response: { 200: NoticeSchema, 409: ErrorBodySchema, ...errors } },
    config: { access: 'user', permission: 'notice:publish' },
  },
  me: {
    method: 'GET',
    url: '/api/yt/notice/me',
    schema: { tags, summary: "The caller's published notices, newest first, with read state", querystring: MyNoticeQuerySchema, response: { 200: MyNoticePageSchema, ...errors } },
    config: { access: 'user', permission: 'notice:me' },
  },
  read: {
    method: 'POST',
    url: '/api/yt/notice/:id/read',
    schema: { tags, summary: 'Mark one of my notices read', params: IdParamsSchema, response: { 200: OkSchema, ...errors } },
    config: { access: 'user', permission: 'notice:me', noAudit: true },
  },
});
