/**
 * Event records of a device (its event management tab): events the
 * device reported on `v1/devices/me/events`, matched to the published thing model's events by
 * identifier. Stored by the transport (table `event_record`); this is the list over them.
 *
 * Filters (all optional, combined with AND): identifier (exact), eventType, startTime ≤ ts ≤
 * endTime (epoch ms; endTime before startTime is refused, `error.event.rangeInvalid`). Newest first.
 * Unknown device: 404 code 32 `error.notFound`.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { DateInput, EpochMs, IdParamsSchema, Nullable, PageOf, PageQuerySchema } from './common.ts';

/** Event types, as a thing model's events declare them. */
export const eventTypes = ['INFO', 'ALERT', 'ERROR'] as const;
export const EventTypeSchema = Type.Enum(eventTypes);
export type EventType = (typeof eventTypes)[number];

export const EventRecordSchema = Type.Object({
  id: Type.String(),
  deviceId: Type.String(),
  /** When the event happened (the device's ts, else arrival). */
  ts: EpochMs,
  identifier: Type.String(),
  /** The thing model event's functionName; null when the identifier matches no published event. */
  eventName: Nullable(Type.String()),
  eventType: EventTypeSchema,
  /** Output parameters as reported. */
  params: Type.Unknown(),
  /** Why the event did not match the published model (unknown identifier, wrong parameter), else null. */
  flag: Nullable(Type.String()),
});
export type EventRecord = Static<typeof EventRecordSchema>;

export const EventListQuerySchema = Type.Object({
  ...PageQuerySchema.properties,
  identifier: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  eventType: Type.Optional(EventTypeSchema),
  startTime: Type.Optional(DateInput),
  endTime: Type.Optional(DateInput),
});
export type EventListQuery = Static<typeof EventListQuerySchema>;

export const EventPageSchema = PageOf(EventRecordSchema);
export type EventPage = Static<typeof EventPageSchema>;

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };

export const eventRecordRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/device/:id/event',
    schema: {
      tags: ['event'],
      summary: 'Events a device reported, newest first, filtered by identifier, type and time',
      params: IdParamsSchema,
      querystring: EventListQuerySchema,
      response: { 200: EventPageSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:event', deviceParam: 'id' },
  },
});
