/**
 * Alarms (`/api/yt/alarm`, the alarm record page, the device's alarm tab, the popup and the
 * workbench card). A scene's MSG_NOTIFY action raises them (server/contract/scene-linkage.ts).
 *
 * - One open alarm per (scene, device, type): firing again while it is not cleared updates that
 *   alarm (`details.value`, `count` + 1, `endTs`) instead of creating another, as ThingsBoard does;
 *   firing after it was cleared creates a new one. A clear (by hand included) re-arms the trigger
 *   that raised the alarm: while its condition still holds, the next matching message raises a
 *   new alarm, as ThingsBoard does, instead of waiting for the value to fall and rise again.
 * - Statuses: ACTIVE_UNACK → (ack) ACTIVE_ACK; (clear, by hand or by the scene's clear rule)
 *   ACTIVE_* → CLEARED_*. Ack of an acknowledged alarm and clear of a cleared one change nothing.
 * - Batch calls take `{ alarmIds }`; an unknown id refuses the whole batch (404, `details` naming
 *   `alarmIds.<i>`), nothing changes. Unknown id of a single call: 404 code 32 `error.notFound`.
 * - Every change is announced on `/api/ws` to ALARM_DATA and ALARM_COUNT subscribers
 *   (server/contract/realtime.ts).
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { DateInput, EpochMs, IdParamsSchema, Nullable, PageOf, PageQuerySchema, ResourceIdSchema } from './common.ts';

/** alarmLevel: the severity of an alarm, worst first. */
export const alarmSeverities = ['CRITICAL', 'MAJOR', 'MINOR', 'WARNING', 'INDETERMINATE'] as const;
export const AlarmSeveritySchema = Type.Enum(alarmSeverities);
export type AlarmSeverity = (typeof alarmSeverities)[number];

/** alarm status */
export const alarmStatuses = ['ACTIVE_UNACK', 'ACTIVE_ACK', 'CLEARED_UNACK', 'CLEARED_ACK'] as const;
export const AlarmStatusSchema = Type.Enum(alarmStatuses);
export type AlarmStatus = (typeof alarmStatuses)[number];
export const activeAlarmStatuses: readonly AlarmStatus[] = ['ACTIVE_UNACK', 'ACTIVE_ACK'];
export const unackAlarmStatuses: readonly AlarmStatus[] = ['ACTIVE_UNACK', 'CLEARED_UNACK'];

/** What fired the alarm: the trigger's comparison and the value that made it true. */
export const AlarmDetailsSchema = Type.Object({
  /** Index of the trigger in the scene. */
  triggerIndex: Nullable(Type.Integer({ minimum: 0 })),
  /** The telemetry key or event identifier (null: schedule, scene or manual triggers). */
  key: Nullable(Type.String()),
  operation: Nullable(Type.String()),
  threshold: Nullable(Type.Unsafe<unknown>({})),
  /** The latest value that fired it. */
  value: Nullable(Type.Unsafe<unknown>({})),
  /** The MSG_NOTIFY action's message. */
  message: Nullable(Type.String()),
});
export type AlarmDetails = Static<typeof AlarmDetailsSchema>;

export const AlarmSchema = Type.Object({
  id: Type.String(),
  sceneLinkageId: Type.String(),
  sceneName: Type.String(),
  /** Null for scenes fired without a device (schedule, manual). */
  deviceId: Nullable(Type.String()),
  deviceName: Nullable(Type.String()),
  deviceAlias: Nullable(Type.String()),
  organizationId: Nullable(Type.String()),
  severity: AlarmSeveritySchema,
  /** The MSG_NOTIFY action's alarmType. */
  type: Type.String(),
  status: AlarmStatusSchema,
  /** First firing. */
  startTs: EpochMs,
  /** Latest firing. */
  endTs: Nullable(EpochMs),
  createdTime: EpochMs,
  ackTs: Nullable(EpochMs),
  clearTs: Nullable(EpochMs),
  /** How many times it fired while open. */
  count: Type.Integer({ minimum: 1 }),
  details: AlarmDetailsSchema,
});
export type Alarm = Static<typeof AlarmSchema>;

export const AlarmListQuerySchema = Type.Object(
  {
    ...PageQuerySchema.properties,
    status: Type.Optional(AlarmStatusSchema),
    severity: Type.Optional(AlarmSeveritySchema),
    deviceId: Type.Optional(ResourceIdSchema),
    sceneLinkageId: Type.Optional(ResourceIdSchema),
    /** createdTime ≥ startTime and ≤ endTime (endTime before startTime: `error.alarm.rangeInvalid`). */
    startTime: Type.Optional(DateInput),
    endTime: Type.Optional(DateInput),
  },
  { additionalProperties: false },
);
export type AlarmListQuery = Static<typeof AlarmListQuerySchema>;
export const AlarmPageSchema = PageOf(AlarmSchema);
export type AlarmPage = Static<typeof AlarmPageSchema>;

export const ALARM_BATCH_MAX = 1000;
export const AlarmBatchBodySchema = Type.Object(
  { alarmIds: Type.Array(ResourceIdSchema, { minItems: 1, maxItems: ALARM_BATCH_MAX }) },
  { additionalProperties: false },
);
export type AlarmBatchBody = Static<typeof AlarmBatchBodySchema>;
/** How many alarms changed (already acknowledged / cleared ones are left as they are). */
export const AlarmBatchResultSchema = Type.Object({ updated: Type.Integer({ minimum: 0 }) });
export type AlarmBatchResult = Static<typeof AlarmBatchResultSchema>;

const Count = Type.Integer({ minimum: 0 });
/** Alarm counts of an organization and its descendants (devices without one count under the root). */
export const AlarmProfileSchema = Type.Object({
  total: Count,
  /** ACTIVE_UNACK + ACTIVE_ACK */
  active: Count,
  /** ACTIVE_UNACK + CLEARED_UNACK */
  unacknowledged: Count,
  byStatus: Type.Object(Object.fromEntries(alarmStatuses.map((s) => [s, Count])) as Record<AlarmStatus, typeof Count>),
  /** Active alarms per severity. */
  bySeverity: Type.Object(Object.fromEntries(alarmSeverities.map((s) => [s, Count])) as Record<AlarmSeverity, typeof Count>),
});
export type AlarmProfile = Static<typeof AlarmProfileSchema>;

export const AlarmProfileParamsSchema = Type.Object({ organizationId: ResourceIdSchema });

const tags = ['alarm'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };

export const alarmRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/alarm',
    schema: { tags, summary: 'Alarms, newest first', querystring: AlarmListQuerySchema, response: { 200: AlarmPageSchema, ...errors } },
    config: { access: 'user', permission: 'alarm:list' },
  },
  get: {
    method: 'GET',
    url: '/api/yt/alarm/:id',
    schema: { tags, summary: 'One alarm', params: IdParamsSchema, response: { 200: AlarmSchema, ...errors } },
    config: { access: 'user', permission: 'alarm:view' },
  },
  ack: {
    method: 'POST',
    url: '/api/yt/alarm/:id/ack',
    schema: { tags, summary: 'Acknowledge (handle) an alarm', params: IdParamsSchema, response: { 200: AlarmSchema, ...errors } },
    config: { access: 'user', permission: 'alarm:handle' },
  },
  clear: {
    method: 'POST',
    url: '/api/yt/alarm/:id/clear',
    schema: { tags, summary: 'Clear an alarm', params: IdParamsSchema, response: { 200: AlarmSchema, ...errors } },
    config: { access: 'user', permission: 'alarm:handle' },
  },
  batchAck: {
    method: 'POST',
    url: '/api/yt/alarm/batch/ack',
    schema: { tags, summary: 'Acknowledge alarms', body: AlarmBatchBodySchema, response: { 200: AlarmBatchResultSchema, ...errors } },
    config: { access: 'user', permission: 'alarm:handle' },
  },
  batchClear: {
    method: 'POST',
    url: '/api/yt/alarm/batch/clear',
    schema: { tags, summary: 'Clear alarms', body: AlarmBatchBodySchema, response: { 200: AlarmBatchResultSchema, ...errors } },
    config: { access: 'user', permission: 'alarm:handle' },
  },
  profile: {
    method: 'GET',
    url: '/api/yt/alarm/profile/:organizationId',
    schema: {
      tags,
      summary: 'Alarm counts by status and severity of an organization and its descendants',
      params: AlarmProfileParamsSchema,
      response: { 200: AlarmProfileSchema, ...errors },
    },
    config: { access: 'user', permission: 'alarm:list' },
  },
});
