/**
 * Telemetry storage and queries (docs/ARCHITECTURE.md, "The path of a telemetry message").
 *
 * ThingsBoard-compatible reads:
 * - `GET /api/plugins/telemetry/DEVICE/{id}/values/timeseries?keys&startTs&endTs&interval&agg&limit&orderBy`
 *   answers `{ key: [{ ts, value, flag? }] }`.
 *   Without `startTs`: the latest value of each key (`keys` optional: all keys when left out).
 *   With `startTs`: history in [startTs, endTs] (endTs defaults to now); `keys` is required
 *   (`error.telemetry.keysRequired`: filter criteria must be filled before a query).
 *   `agg` NONE (default) gives raw points, newest first unless `orderBy=ASC`, at most `limit`
 *   (default 100, at most 50,000: `error.telemetry.limitTooLarge`). MIN, MAX, AVG, SUM and COUNT
 *   group the range into `interval`-millisecond buckets (`error.telemetry.intervalRequired` without
 *   one, `error.telemetry.tooManyIntervals` past 50,000 buckets); a bucket's `ts` is its middle (as
 *   ThingsBoard), empty buckets are left out, MIN/MAX/AVG/SUM read numbers and booleans (1/0) only
 *   and COUNT counts every value. Values flagged out of their property's range are left out of
 *   the aggregates (as the console's chart leaves them out) unless `includeOutOfRange=true`.
 *   `endTs` before `startTs`: `error.telemetry.rangeInvalid`.
 *   Values are answered as strings (objects and arrays as JSON text), as ThingsBoard answers by
 *   default (`useStrictDataTypes=false`); `useStrictDataTypes=true` keeps their JSON type (number,
 *   boolean, string, object), which the console asks for.
 * - `GET /api/plugins/telemetry/DEVICE/{id}/keys/timeseries`: the keys the device ever reported.
 * - `POST /api/plugins/telemetry/DEVICE/{id}/timeseries/{scope}` (ThingsBoard's saveEntityTelemetry;
 *   `scope` is not read, ThingsBoard's clients send `ANY`): the body is a device's telemetry
 *   message (`{ k: v }`, `{ ts, values }` or an array of them) stored as if the device had sent it
 *   (thing-model flags, live updates, rules) → 200 with an empty body once committed. The device
 *   API's rules hold: 400 code 31 with its reason key (`error.transport.empty`, `…badKey`,
 *   `…tooDeep`, …), 413 over 64 KB. Needs `device:attributes` (writing device data), like the
 *   shared-attribute writes.
 * - `GET /api/plugins/telemetry/DEVICE/{id}/values/attributes?keys`: client attributes, then shared
 *   attributes (server/contract/shared-attributes.ts), `[{ key, value, lastUpdateTs, flag? }]`. An attribute whose key is a property of the published
 *   model is checked like telemetry (flagged when it does not fit); other keys are kept unflagged,
 *   since devices report attributes (firmware version, serial number) no model describes.
 * Unknown device: 404 code 32 `error.notFound`.
 *
 * `flag` marks a value that did not match the product's published thing model (wrong type, out of
 * range, unknown key): it is stored and shown, never dropped. Its text is the thing-model check's
 * reason.
 *
 * Retention: `GET|PUT /api/yt/telemetry/settings` `{ telemetryRetentionDays }` (1–3650, default 30:
 * `error.telemetry.retentionDays`). A daily job deletes history and event records older than that.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { EpochMs, IdParamsSchema } from './common.ts';

/** A history query returns at most 50,000 records. */
export const HISTORY_LIMIT_MAX = 50_000;
/** ThingsBoard's default `limit` of a history query. */
export const HISTORY_LIMIT_DEFAULT = 100;
export const RETENTION_DAYS_MIN = 1;
export const RETENTION_DAYS_MAX = 3650;
export const RETENTION_DAYS_DEFAULT = 30;
/** Longest telemetry or attribute key a device may report. */
export const TELEMETRY_KEY_MAX = 255;

/** Aggregations of a history query (`agg`); NONE gives raw points. */
export const aggregations = ['MIN', 'MAX', 'AVG', 'SUM', 'COUNT', 'NONE'] as const;
export const AggregationSchema = Type.Enum(aggregations);
export type Aggregation = (typeof aggregations)[number];

export const timeseriesOrders = ['ASC', 'DESC'] as const;
export type TimeseriesOrder = (typeof timeseriesOrders)[number];

/** A telemetry value as devices send it: a JSON number, boolean, string, object or array. */
export type TelemetryValue = number | boolean | string | Record<string, unknown> | unknown[];

/** One stored telemetry value as the live data hears of it; `flag` says why it did not match the published thing model. */
export interface TelemetryEntry {
  ts: number;
  key: string;
  value: unknown;
  flag?: string;
}

export const TimeseriesQuerySchema = Type.Object({
  /** Comma-separated keys. Required with startTs. */
  keys: Type.Optional(Type.String({ maxLength: 4096 })),
  startTs: Type.Optional(EpochMs),
  endTs: Type.Optional(EpochMs),
  /** Bucket width in milliseconds, for MIN, MAX, AVG, SUM and COUNT. */
  interval: Type.Optional(Type.Integer({ minimum: 1 })),
  agg: Type.Optional(AggregationSchema),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: HISTORY_LIMIT_MAX })),
  orderBy: Type.Optional(Type.Enum(timeseriesOrders)),
  useStrictDataTypes: Type.Optional(Type.Boolean()),
  /** With an aggregation: count values flagged out of their property's range too (left out by default). */
  includeOutOfRange: Type.Optional(Type.Boolean()),
});
export type TimeseriesQuery = Static<typeof TimeseriesQuerySchema>;

export const TimeseriesPointSchema = Type.Object({
  ts: EpochMs,
  value: Type.Unknown(),
  /** Why the value did not match the published thing model. */
  flag: Type.Optional(Type.String()),
});
export type TimeseriesPoint = Static<typeof TimeseriesPointSchema>;

export const TimeseriesValuesSchema = Type.Record(Type.String(), Type.Array(TimeseriesPointSchema));
export type TimeseriesValues = Static<typeof TimeseriesValuesSchema>;

export const TimeseriesKeysSchema = Type.Array(Type.String());

export const AttributesQuerySchema = Type.Object({
  keys: Type.Optional(Type.String({ maxLength: 4096 })),
});

export const AttributeValueSchema = Type.Object({
  key: Type.String(),
  value: Type.Unknown(),
  lastUpdateTs: EpochMs,
  flag: Type.Optional(Type.String()),
});
export type AttributeValue = Static<typeof AttributeValueSchema>;

export const TelemetrySettingsSchema = Type.Object(
  {
    telemetryRetentionDays: Type.Integer({ minimum: RETENTION_DAYS_MIN, maximum: RETENTION_DAYS_MAX }),
  },
  { additionalProperties: false },
);
export type TelemetrySettings = Static<typeof TelemetrySettingsSchema>;

/** ThingsBoard reads no scope for time series (its clients send `ANY`); any word is taken. */
export const SaveTimeseriesParamsSchema = Type.Object({ id: IdParamsSchema.properties.id, scope: Type.String({ pattern: '^[A-Z_]{1,32}$' }) });
/** A device's telemetry message: `{ k: v }`, `{ ts, values }` or an array of them. */
export const SaveTimeseriesBodySchema = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Array(Type.Unknown())], {
  description: 'Telemetry as a device sends it (at most 64 KB)',
});

const tags = ['telemetry'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };

export const telemetryRoutes = defineRoutes({
  timeseries: {
    method: 'GET',
    url: '/api/plugins/telemetry/DEVICE/:id/values/timeseries',
    schema: {
      tags,
      summary: 'Latest values (without startTs) or history, raw or aggregated in interval buckets',
      params: IdParamsSchema,
      querystring: TimeseriesQuerySchema,
      response: { 200: TimeseriesValuesSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:telemetry', deviceParam: 'id' },
  },
  timeseriesKeys: {
    method: 'GET',
    url: '/api/plugins/telemetry/DEVICE/:id/keys/timeseries',
    schema: {
      tags,
      summary: 'Telemetry keys the device has reported',
      params: IdParamsSchema,
      response: { 200: TimeseriesKeysSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:telemetry', deviceParam: 'id' },
  },
  attributes: {
    method: 'GET',
    url: '/api/plugins/telemetry/DEVICE/:id/values/attributes',
    schema: {
      tags,
      summary: 'Client attributes the device reported, then shared attributes (latest value of each)',
      params: IdParamsSchema,
      querystring: AttributesQuerySchema,
      response: { 200: Type.Array(AttributeValueSchema), ...errors },
    },
    config: { access: 'user', permission: 'device:telemetry', deviceParam: 'id' },
  },
  save: {
    method: 'POST',
    url: '/api/plugins/telemetry/DEVICE/:id/timeseries/:scope',
    schema: {
      tags,
      summary: 'Save telemetry as the device would send it (ThingsBoard’s saveEntityTelemetry)',
      params: SaveTimeseriesParamsSchema,
      body: SaveTimeseriesBodySchema,
      response: { 200: Type.Unsafe<undefined>({ description: 'Done: an empty body, as ThingsBoard answers' }), ...errors, 413: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'device:attributes', deviceParam: 'id' },
  },
  getSettings: {
    method: 'GET',
    url: '/api/yt/telemetry/settings',
    schema: { tags, summary: 'Telemetry retention', response: { 200: TelemetrySettingsSchema, ...errors } },
    config: { access: 'user', permission: 'system:config' },
  },
  updateSettings: {
    method: 'PUT',
    url: '/api/yt/telemetry/settings',
    schema: {
      tags,
      summary: 'Set how many days history and event records are kept (1–3650)',
      body: TelemetrySettingsSchema,
      response: { 200: TelemetrySettingsSchema, ...errors },
    },
    config: { access: 'user', permission: 'system:config' },
  },
});
