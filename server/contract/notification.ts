/**
 * Notifications (`/api/yt/notification`, the header bell): messages to one user, read or unread.
 * A scene's MSG_NOTIFY action creates one for every user (type ALARM); other modules call
 * `services.notifications.notify(...)` (server/modules/notification/). A user sees and marks only
 * their own. Changes are pushed on `/api/ws` to NOTIFICATIONS and NOTIFICATIONS_COUNT subscribers
 * (server/contract/realtime.ts). Ids of other users' or unknown notifications are skipped.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { EpochMs, Nullable, PageOf, PageQuerySchema, ResourceIdSchema } from './common.ts';
import { AlarmSeveritySchema } from './alarm.ts';

/** What a notification is about (ThingsBoard's notification types, the two we raise). */
export const notificationTypes = ['ALARM', 'GENERAL'] as const;
export const NotificationTypeSchema = Type.Enum(notificationTypes);
export type NotificationType = (typeof notificationTypes)[number];

/** ThingsBoard's statuses: SENT (unread) and READ. */
export const notificationStatuses = ['SENT', 'READ'] as const;
export const NotificationStatusSchema = Type.Enum(notificationStatuses);
export type NotificationStatus = (typeof notificationStatuses)[number];

export const NotificationInfoSchema = Type.Object({
  alarmId: Type.Optional(Type.String()),
  severity: Type.Optional(AlarmSeveritySchema),
  deviceId: Type.Optional(Nullable(Type.String())),
  deviceName: Type.Optional(Nullable(Type.String())),
  sceneLinkageId: Type.Optional(Type.String()),
});
export type NotificationInfo = Static<typeof NotificationInfoSchema>;

export const NotificationSchema = Type.Object({
  id: Type.String(),
  type: NotificationTypeSchema,
  /** ALARM: the alarm type; as written by whoever raised it (not translated). */
  subject: Type.String(),
  /** ALARM: the action's message (null: the console composes one from `info`). */
  text: Nullable(Type.String()),
  info: NotificationInfoSchema,
  status: NotificationStatusSchema,
  createdTime: EpochMs,
});
export type Notification = Static<typeof NotificationSchema>;

export const NotificationListQuerySchema = Type.Object(
  { ...PageQuerySchema.properties, unreadOnly: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type NotificationListQuery = Static<typeof NotificationListQuerySchema>;
/** A page plus the user's unread count (the bell's badge). */
export const NotificationPageSchema = Type.Object({ ...PageOf(NotificationSchema).properties, unreadCount: Type.Integer({ minimum: 0 }) });
export type NotificationPage = Static<typeof NotificationPageSchema>;

export const NotificationReadBodySchema = Type.Object(
  { ids: Type.Array(ResourceIdSchema, { minItems: 1, maxItems: 1000 }) },
  { additionalProperties: false },
);
/** How many became read, and the unread count after. */
export const NotificationReadResultSchema = Type.Object({ updated: Type.Integer({ minimum: 0 }), unreadCount: Type.Integer({ minimum: 0 }) });
export type NotificationReadResult = Static<typeof NotificationReadResultSchema>;

/** Notifications kept per user (older read ones go first). */
export const NOTIFICATIONS_KEEP_PER_USER = 1000;

const tags = ['notification'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema };

export const notificationRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/notification',
    schema: {
      tags,
      summary: "The caller's notifications, newest first",
      querystring: NotificationListQuerySchema,
      response: { 200: NotificationPageSchema, ...errors },
    },
    config: { access: 'user', permission: 'notification:view' },
  },
  read: {
    method: 'POST',
    url: '/api/yt/notification/read',
    schema: { tags, summary: 'Mark notifications read', body: NotificationReadBodySchema, response: { 200: NotificationReadResultSchema, ...errors } },
    config: { access: 'user', permission: 'notification:view' },
  },
  readAll: {
    method: 'POST',
    url: '/api/yt/notification/read_all',
    schema: { tags, summary: "Mark all the caller's notifications read", response: { 200: NotificationReadResultSchema, ...errors } },
    config: { access: 'user', permission: 'notification:view' },
  },
});
