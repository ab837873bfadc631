/**
 * The audit log (System → Audit log): who did what, when, and from which address. Rows are written
 * by the server (sign-in and failed sign-in, and every successful create, update, delete or action
 * call of a signed-in user); this contract only reads them. Retention is bounded by a row cap and
 * an age (`AuditRetention`, server/modules/audit-log/audit-log-service.ts); refused sign-ins are
 * counted rows under a cap of their own, so anonymous attempts cannot evict what users did.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { DateInput, EpochMs, Nullable, PageOf, PageQuerySchema, ResourceIdSchema, SortQueryProperties } from './common.ts';

/** Actions that are not an HTTP call of a signed-in user; the others are `METHOD /route/:pattern`. */
export const auditSignIn = 'auth.signIn';
export const auditSignInFailed = 'auth.signInFailed';
export const AUDIT_ACTION_MAX = 200;

export const AuditLogSchema = Type.Object({
  id: Type.String(),
  time: EpochMs,
  userId: Nullable(Type.String()),
  /** The user name at the time (kept when the user is deleted; the typed name for a failed sign-in). */
  username: Nullable(Type.String()),
  /** `auth.signIn`, `auth.signInFailed`, or the call's method and route pattern, e.g. `POST /api/yt/device`. */
  action: Type.String(),
  /**
   * The call's OpenAPI operationId (route.ts, operationIdOf), the key of its description in
   * locales/<lng>/auditLog.json under `operations`; null for sign-ins and for rows written before
   * the key was kept (the console shows `summary` for those).
   */
  operation: Nullable(Type.String()),
  /** What the call does in English (the route's summary), as written at the time. */
  summary: Nullable(Type.String()),
  /** The entity the call named (path id, body id or ids, or the id of what it created). */
  entityId: Nullable(Type.String()),
  statusCode: Nullable(Type.Integer()),
  sourceAddress: Type.String(),
  /**
   * How many attempts the row counts: refused sign-ins are one row per typed account, source
   * address and hour, whose `time` is the latest attempt; every other row is one event (1).
   */
  attempts: Type.Integer({ minimum: 1 }),
});
export type AuditLog = Static<typeof AuditLogSchema>;

export const AuditLogQuerySchema = Type.Object({
  ...PageQuerySchema.properties,
  userId: Type.Optional(ResourceIdSchema),
  /** Part of the action, e.g. `signIn`, `device` or `DELETE`. */
  action: Type.Optional(Type.String({ maxLength: AUDIT_ACTION_MAX })),
  startTime: Type.Optional(DateInput),
  endTime: Type.Optional(DateInput),
  /** Newest first unless told `ascend`. */
  ...SortQueryProperties(['time'] as const),
});
export type AuditLogQuery = Static<typeof AuditLogQuerySchema>;

export const AuditLogPageSchema = PageOf(AuditLogSchema);

export const auditLogRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/audit_log',
    schema: {
      tags: ['auditLog'],
      summary: 'Audit log as a page, newest first (user, action, time range)',
      querystring: AuditLogQuerySchema,
      response: { 200: AuditLogPageSchema, 400: ErrorBodySchema, 401: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'audit_log:list' },
  },
});
