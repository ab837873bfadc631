/**
 * ThingsBoard's entity data query (`POST /api/entitiesQuery/find`), as far as the console spec
 * uses it: the `apiUsageState` entity filter, a page link, entity fields and latest values. The
 * gateway has one API usage state, its own; docs/THINGSBOARD.md says what it holds.
 *
 * Values are text, as ThingsBoard's `TsValue` carries them; a key the entity does not have answers
 * `{ ts: 0, value: '' }`, ThingsBoard's empty value.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { MAX_PAGE_SIZE } from './common.ts';

export const entityKeyTypes = [
  'ENTITY_FIELD',
  'ATTRIBUTE',
  'CLIENT_ATTRIBUTE',
  'SHARED_ATTRIBUTE',
  'SERVER_ATTRIBUTE',
  'TIME_SERIES',
  'ALARM_FIELD',
  'CONSTANT',
] as const;
export type EntityKeyType = (typeof entityKeyTypes)[number];

export const EntityKeySchema = Type.Object({
  type: Type.Enum(entityKeyTypes),
  key: Type.String({ minLength: 1, maxLength: 255 }),
});
export type EntityKey = Static<typeof EntityKeySchema>;

/** The only filter this gateway answers: its API usage state. */
export const ApiUsageStateFilterSchema = Type.Object({ type: Type.Literal('apiUsageState') });

export const EntityPageLinkSchema = Type.Object({
  pageSize: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE }),
  page: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  textSearch: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
  sortOrder: Type.Optional(
    Type.Union([Type.Object({ key: EntityKeySchema, direction: Type.Enum(['ASC', 'DESC']) }), Type.Null()]),
  ),
  dynamic: Type.Optional(Type.Boolean()),
});

export const EntityDataQuerySchema = Type.Object({
  entityFilter: ApiUsageStateFilterSchema,
  pageLink: EntityPageLinkSchema,
  entityFields: Type.Optional(Type.Array(EntityKeySchema, { maxItems: 64 })),
  latestValues: Type.Optional(Type.Array(EntityKeySchema, { maxItems: 64 })),
});
export type EntityDataQuery = Static<typeof EntityDataQuerySchema>;

export const TsValueSchema = Type.Object({ ts: Type.Integer({ minimum: 0 }), value: Type.String() });
export type TsValue = Static<typeof TsValueSchema>;

export const EntityDataSchema = Type.Object({
  entityId: Type.Object({ entityType: Type.Literal('API_USAGE_STATE'), id: Type.String() }),
  /** Key type → key → value, for every key the query asked for. */
  latest: Type.Record(Type.String(), Type.Record(Type.String(), TsValueSchema)),
  timeseries: Type.Object({}),
});
export type EntityData = Static<typeof EntityDataSchema>;

export const EntityDataPageSchema = Type.Object({
  data: Type.Array(EntityDataSchema),
  totalPages: Type.Integer({ minimum: 0 }),
  totalElements: Type.Integer({ minimum: 0 }),
  hasNext: Type.Boolean(),
});
export type EntityDataPage = Static<typeof EntityDataPageSchema>;

export const entityQueryRoutes = defineRoutes({
  find: {
    method: 'POST',
    url: '/api/yt/entitiesQuery/find',
    schema: {
      tags: ['entity-query'],
      summary: "The gateway's API usage state as ThingsBoard's entity data query answers it (filter apiUsageState only)",
      body: EntityDataQuerySchema,
      response: { 200: EntityDataPageSchema, 400: ErrorBodySchema, 401: ErrorBodySchema },
    },
    // It reports the licence's effect on the APIs, so it answers without a valid licence too.
    config: { access: 'user', permission: 'dashboard:view', licenseFree: true },
  },
});
